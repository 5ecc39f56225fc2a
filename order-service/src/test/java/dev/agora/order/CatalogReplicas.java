package dev.agora.order;

import dev.agora.local.postgres.PostgresServer;
import dev.agora.local.postgres.SharedPostgres;
import dev.agora.local.process.ServiceJars;
import dev.agora.local.process.ServiceProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
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

    private static List<ServiceProcess> replicas;

    private CatalogReplicas() {}

    static synchronized List<ServiceProcess> get() {
        if (replicas == null) replicas = start();
        return replicas;
    }

    private static List<ServiceProcess> start() {
        PostgresServer postgres = SharedPostgres.get();
        String databaseUrl = postgres.jdbcUrl("catalog_it");
        Path jar = ServiceJars.locate("catalog-service");
        List<ServiceProcess> started = IntStream.range(0, 2)
                .mapToObj(i -> ServiceProcess.builder("catalog-it-" + i, jar, freePort())
                        .env("DATABASE_URL", databaseUrl)
                        .env("DATABASE_USERNAME", postgres.username())
                        .env("DATABASE_PASSWORD", postgres.password())
                        .env("DATABASE_POOL_SIZE", "5")
                        .env("AGORA_INVALIDATION_ENABLED", "false")
                        .env(localProfile())
                        .logFile(Path.of("target", "catalog-it-" + i + ".log"))
                        .build())
                .toList();
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> started.forEach(replica -> replica.stop(Duration.ofSeconds(10))),
                        "catalog-replicas-stop"));
        started.forEach(ServiceProcess::start);
        started.forEach(replica -> replica.awaitReady(Duration.ofMinutes(4)));
        return started;
    }

    /** What a catalog process of these tests runs with: the local profile, trusting the tests' issuer. */
    static Map<String, String> localProfile() {
        return Map.of("SPRING_PROFILES_ACTIVE", "local", "AGORA_AUTHORITIES", Tokens.ISSUER.url());
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
