package dev.agora.order;

import dev.agora.local.cluster.LocalProcesses;
import dev.agora.local.cluster.LocalProfile;
import dev.agora.local.postgres.SharedPostgres;
import dev.agora.local.process.ServiceProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Two real catalog-service processes (the module's runnable jar) on one database of the test JVM's
 * PostgreSQL, started once per JVM and stopped when it exits, in the local profile and taking their token keys
 * from the tests' {@link Tokens#ISSUER}. Tests may kill or freeze replica 1; replica 0 stays up for the tests'
 * own reads.
 */
final class CatalogReplicas {

    static final LocalProcesses PROCESSES = new LocalProcesses(Path.of("target")).closeOnExit("catalog-replicas-stop");
    private static List<ServiceProcess> replicas;

    private CatalogReplicas() {}

    static synchronized List<ServiceProcess> get() {
        if (replicas == null) replicas = start();
        return replicas;
    }

    private static List<ServiceProcess> start() {
        Map<String, String> database = LocalProfile.database(SharedPostgres.get(), "catalog_it");
        List<ServiceProcess> started = IntStream.range(0, 2)
                .mapToObj(i -> PROCESSES.service("catalog-service", "catalog-it-" + i, catalog -> catalog.env(database)
                        .env("DATABASE_POOL_SIZE", "5")
                        .env("AGORA_INVALIDATION_ENABLED", "false")
                        .env(localProfile())))
                .toList();
        LocalProcesses.startAndAwaitReady(started, Duration.ofMinutes(4));
        return started;
    }

    /** What a catalog process of these tests runs with: the local profile, trusting the tests' issuer. */
    static Map<String, String> localProfile() {
        return LocalProfile.trusting(Tokens.ISSUER.url());
    }
}
