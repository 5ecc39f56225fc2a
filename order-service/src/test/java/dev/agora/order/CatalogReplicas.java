package dev.agora.order;

import dev.agora.local.cluster.FreePorts;
import dev.agora.local.cluster.LocalProcesses;
import dev.agora.local.cluster.LocalProfile;
import dev.agora.local.postgres.SharedPostgres;
import dev.agora.local.process.ServiceProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

/**
 * Two real catalog-service processes (the module's runnable jar) on one database of the test JVM's
 * PostgreSQL, started once per JVM and stopped when it exits, in the local profile and taking their token keys
 * from the tests' {@link Tokens#ISSUER}. Tests may kill or freeze replica 1; replica 0 stays up for the tests'
 * own reads. Their ports are chosen first and they start in the background ({@link #urls()}), so that what needs
 * only their addresses (the order service's context) starts meanwhile, on the other core; {@link #get()} waits
 * until they are ready.
 */
final class CatalogReplicas {

    static final LocalProcesses PROCESSES = new LocalProcesses(Path.of("target")).closeOnExit("catalog-replicas-stop");
    private static final Duration READY = Duration.ofMinutes(4);
    private static List<Integer> ports;
    private static CompletableFuture<List<ServiceProcess>> starting;
    private static volatile List<ServiceProcess> ready;

    private CatalogReplicas() {}

    /** The replicas' base URLs, starting them in the background on first use. */
    static synchronized List<String> urls() {
        begin();
        return ports.stream().map(FreePorts::url).toList();
    }

    /** The replicas, ready the first time (later calls return them as they are, however a test left them). */
    static List<ServiceProcess> get() {
        List<ServiceProcess> replicas = ready;
        if (replicas != null) return replicas;
        synchronized (CatalogReplicas.class) {
            if (ready == null) {
                begin();
                List<ServiceProcess> started = starting.join();
                started.forEach(replica -> replica.awaitReady(READY));
                ready = started;
            }
            return ready;
        }
    }

    private static void begin() {
        if (starting != null) return;
        ports = List.of(FreePorts.next(), FreePorts.next());
        Map<String, String> database = LocalProfile.database(SharedPostgres.get(), "catalog_it");
        // Preparing the first process may train the jar's AOT cache (TestAotCaches): tens of seconds of one core.
        starting = CompletableFuture.supplyAsync(
                () -> {
                    List<ServiceProcess> replicas = IntStream.range(0, ports.size())
                            .mapToObj(i -> PROCESSES.service(
                                    "catalog-service", "catalog-it-" + i, ports.get(i), catalog -> catalog.env(database)
                                            .env("DATABASE_POOL_SIZE", "5")
                                            .env("AGORA_INVALIDATION_ENABLED", "false")
                                            .env(localProfile())))
                            .toList();
                    replicas.forEach(ServiceProcess::start);
                    return replicas;
                },
                task -> Thread.ofPlatform()
                        .daemon()
                        .name("catalog-replicas-start")
                        .start(task));
    }

    /** What a catalog process of these tests runs with: the local profile, trusting the tests' issuer. */
    static Map<String, String> localProfile() {
        return LocalProfile.trusting(Tokens.ISSUER.url());
    }
}
