package dev.agora.launcher.cluster;

import dev.agora.launcher.credentials.AccessTokens;
import dev.agora.launcher.credentials.Credentials;
import dev.agora.local.cluster.FreePorts;
import dev.agora.local.cluster.LocalProfile;
import dev.agora.local.postgres.DatabaseOwners;
import dev.agora.local.postgres.PostgresServer;
import dev.agora.local.process.AotTraining;
import dev.agora.local.process.ServiceProcess;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The AOT training run of the bookstore's three services together, on the work a real first buy does: catalog,
 * order service and frontend start side by side (each with {@code -XX:AOTCacheOutput}) against throwaway databases
 * of the cluster's PostgreSQL, the launcher sends them authenticated lookups, searches and real buys (quantity 1,
 * reading the order back) through the frontend, and stops them; each JVM writes its cache as it exits. A buy thus
 * trains the frontend's token check, cache and order call, the order service's catalog call and outcome writer, and
 * the catalog's reservation and invalidation push, which a service sending itself requests it must refuse (so that
 * they change nothing in the user's data) never reached. The training databases and their roles are dropped after,
 * and again before a run, should a launcher have died during one.
 */
final class BookstoreTraining {

    private static final Logger log = LoggerFactory.getLogger(BookstoreTraining.class);

    /** The services trained together: a buy passes through all three. */
    static final List<Tier> TIERS = List.of(Tier.CATALOG, Tier.ORDER, Tier.FRONTEND);

    /**
     * Rounds of the workload, each a buy of one copy, a read of that order, an anonymous and an authenticated
     * lookup and a search: about 750 requests at the frontend, enough for the JIT's profiles of the whole path
     * (the seed's books hold 1,000 copies each, so no buy runs out of stock).
     */
    static final int ROUNDS = 150;

    /** Names the workload in the caches' stamps: a change of it trains again. */
    static final String RECIPE = "bookstore-workload:v1:rounds=" + ROUNDS;

    private static final int CALLERS = 2;
    private static final String DATABASE_PREFIX = "aot_training_";
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(5);
    /** Until the frontend has admitted its upstreams after their start (their probes failed while they started). */
    private static final Duration FIRST_BUY_TIMEOUT = Duration.ofSeconds(90);
    /** Writing a cache at exit (the JVM assembles it in a child process) takes long on a busy machine. */
    private static final Duration STOP_TIMEOUT = Duration.ofMinutes(5);

    /**
     * One service in the run.
     *
     * @param jar its extracted application jar, as the instances run it
     * @param directory where its cache, stamp and {@code training.log} go
     * @param environment a real first instance's environment; the run replaces its ports, peers and database
     */
    record Trainee(Tier tier, Path jar, Path directory, Map<String, String> environment) {}

    private final PostgresServer postgres;
    private final Credentials credentials;
    private final List<String> jvmOptions;
    private final Path filesDirectory;

    /**
     * @param jvmOptions the instances' JVM options (without CDS options: the cache replaces them)
     * @param filesDirectory the training catalog's book files, deleted after
     */
    BookstoreTraining(PostgresServer postgres, Credentials credentials, List<String> jvmOptions, Path filesDirectory) {
        this.postgres = postgres;
        this.credentials = credentials;
        this.jvmOptions = List.copyOf(jvmOptions);
        this.filesDirectory = filesDirectory;
    }

    /**
     * Trains every trainee's cache (one per tier of {@link #TIERS}) and writes its stamp; the caches of a failed run
     * are deleted, so that no instance starts from half a training.
     *
     * @param niceness CPU priority of the training JVMs (0 = normal)
     * @return how long it took, or null when it failed (logged; each service's output is in its {@code training.log})
     */
    Duration train(List<Trainee> trainees, int niceness) {
        long started = System.nanoTime();
        Map<Tier, Integer> ports = new EnumMap<>(Tier.class);
        for (Trainee trainee : trainees) ports.put(trainee.tier(), FreePorts.next());
        List<ServiceProcess> processes = new ArrayList<>();
        try {
            dropDatabases(trainees);
            for (Trainee trainee : trainees) {
                Cluster.deleteRecursively(trainee.directory());
                Files.createDirectories(trainee.directory());
                processes.add(process(trainee, ports));
            }
            Cluster.inParallel(processes, process -> {
                process.start();
                if (niceness != 0) CpuPriority.set(process.pid(), niceness);
                process.awaitReady(READY_TIMEOUT);
                return process;
            });
            String frontend = FreePorts.url(ports.get(Tier.FRONTEND));
            String outcome = new Workload(frontend, credentials.withTokenUrl(Credentials.tokenUrlOf(frontend))).run();
            log.info("AOT training workload of the bookstore: {}", outcome);
            for (Trainee trainee : trainees) appendTo(trainee.directory().resolve("training.log"), outcome);
            // Each JVM writes its cache as it exits; the frontend first, so that no buy is under way at the others.
            for (ServiceProcess process : processes.reversed()) process.stop(STOP_TIMEOUT);
            for (Trainee trainee : trainees) {
                if (!Files.isRegularFile(cache(trainee))) {
                    throw new IllegalStateException(trainee.tier().service() + " wrote no cache");
                }
                AotCache.stamp(trainee.jar(), trainee.directory(), jvmOptions, RECIPE);
            }
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            log.info("Trained the AOT caches of the bookstore's services in {} ms", took.toMillis());
            return took;
        } catch (IOException | RuntimeException e) {
            log.warn("AOT training of the bookstore failed (see the training.log of each service): {}", e.toString());
            for (Trainee trainee : trainees) Cluster.deleteRecursively(trainee.directory());
            return null;
        } finally {
            for (ServiceProcess process : processes) process.kill();
            try {
                dropDatabases(trainees);
            } catch (RuntimeException e) {
                // PostgreSQL stopping with the cluster as the training ends: the next training drops them first.
                log.info("Left the AOT training's databases for the next training to drop: {}", e.getMessage());
            }
            Cluster.deleteRecursively(filesDirectory);
        }
    }

    private ServiceProcess process(Trainee trainee, Map<Tier, Integer> ports) {
        Tier tier = trainee.tier();
        Map<String, String> env = new LinkedHashMap<>(trainee.environment());
        for (Tier peer : Tier.values()) {
            env.put(peer.instancesVariable(), ports.containsKey(peer) ? FreePorts.url(ports.get(peer)) : "");
        }
        String frontend = FreePorts.url(ports.get(Tier.FRONTEND));
        env.put("AGORA_SECURITY_AUTHORITIES", frontend);
        env.put("PORT", Integer.toString(ports.get(tier)));
        env.put("AGORA_FILES_DIRECTORY", filesDirectory.toString());
        // A first replica's start: it migrates and checks its (empty) database.
        env.remove("SPRING_FLYWAY_ENABLED");
        env.remove("SPRING_JPA_HIBERNATE_DDL_AUTO");
        // Its throwaway identity database is seeded in full; a stamp of it would only void the cluster's.
        env.remove(ClusterStarter.SEED_STAMP);
        DatabaseOwners.Login login = DatabaseOwners.ensure(
                postgres, DATABASE_PREFIX + tier.database().orElseThrow());
        env.putAll(LocalProfile.database(login));
        return ServiceProcess.builder(tier.service() + "-training", trainee.jar(), ports.get(tier))
                .jvmOptions(AotTraining.jvmOptions(jvmOptions, cache(trainee)))
                .env(env)
                .logFile(trainee.directory().resolve("training.log"))
                .build();
    }

    static Path cache(Trainee trainee) {
        return trainee.directory().resolve(trainee.tier().module() + ".aot");
    }

    private void dropDatabases(List<Trainee> trainees) {
        try (Connection admin = DriverManager.getConnection(
                        postgres.jdbcUrl("postgres"), postgres.username(), postgres.password());
                Statement statement = admin.createStatement()) {
            for (Trainee trainee : trainees) {
                String name = DATABASE_PREFIX + trainee.tier().database().orElseThrow();
                statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
                statement.execute("DROP ROLE IF EXISTS " + name);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not drop the AOT training's databases", e);
        }
    }

    private static void appendTo(Path file, String line) {
        try {
            Files.writeString(
                    file,
                    "=== agora launcher: training workload " + line + " ===\n",
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            log.debug("Could not note the workload in {}", file, e);
        }
    }

    /** The requests of a first buy and its neighbours, from {@link #CALLERS} callers at once. */
    private static final class Workload {

        private static final List<String> TOPICS = List.of("distributed systems", "graduate school");
        private static final int BOOKS = 7;

        private final String frontend;
        private final Credentials credentials;
        private final HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2))
                .build();
        private final Map<String, LongAdder> byKindAndStatus = new ConcurrentHashMap<>();

        Workload(String frontend, Credentials credentials) {
            this.frontend = frontend;
            this.credentials = credentials;
        }

        /** @return the requests sent by kind and status; throws when the buys did not go through */
        String run() {
            try (AccessTokens tokens = new AccessTokens(credentials);
                    http) {
                String customer = tokens.authorization(AccessTokens.User.CUSTOMER);
                firstBuy(customer);
                AtomicInteger next = new AtomicInteger();
                List<Thread> callers = new ArrayList<>();
                for (int c = 0; c < CALLERS; c++) {
                    callers.add(Thread.ofPlatform().name("aot-training-" + c).start(() -> {
                        int round;
                        while ((round = next.getAndIncrement()) < ROUNDS) round(round, customer);
                    }));
                }
                for (Thread caller : callers) caller.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted", e);
            }
            Map<String, Long> counts = new TreeMap<>();
            byKindAndStatus.forEach((key, count) -> counts.put(key, count.sum()));
            long bought = counts.getOrDefault("buy 201", 0L);
            if (bought < ROUNDS / 2) throw new IllegalStateException("Too few buys went through: " + counts);
            return counts.toString();
        }

        /** Until the frontend admits its upstreams: a started service's balancer readmits them after a moment. */
        private void firstBuy(String customer) throws InterruptedException {
            long deadline = System.nanoTime() + FIRST_BUY_TIMEOUT.toNanos();
            while (buy(1, customer) == null) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("No buy went through in " + FIRST_BUY_TIMEOUT.toSeconds() + " s: "
                            + byKindAndStatus.keySet());
                }
                Thread.sleep(200);
            }
        }

        private void round(int round, String customer) {
            long book = round % BOOKS + 1;
            String order = buy(book, customer);
            if (order != null) send("order", get(order).header("Authorization", customer));
            send("lookup", get("/api/books/" + book));
            send("lookup as customer", get("/api/books/" + book).header("Authorization", customer));
            String topic = TOPICS.get(round % TOPICS.size());
            send("search", get("/api/books?topic=" + URLEncoder.encode(topic, StandardCharsets.UTF_8)));
        }

        /** @return the new order's path, null when the buy did not go through */
        private String buy(long book, String customer) {
            HttpRequest request = HttpRequest.newBuilder(URI.create(frontend + "/api/orders"))
                    .timeout(Duration.ofSeconds(10))
                    .header("Authorization", customer)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"bookId\": " + book + ", \"quantity\": 1}"))
                    .build();
            HttpResponse<Void> response = send("buy", request);
            return response != null && response.statusCode() == 201
                    ? response.headers().firstValue("Location").orElse(null)
                    : null;
        }

        private HttpRequest.Builder get(String path) {
            return HttpRequest.newBuilder(URI.create(frontend + path)).timeout(Duration.ofSeconds(10));
        }

        private HttpResponse<Void> send(String kind, HttpRequest.Builder request) {
            return send(kind, request.build());
        }

        private HttpResponse<Void> send(String kind, HttpRequest request) {
            HttpResponse<Void> response = null;
            try {
                response = http.send(request, HttpResponse.BodyHandlers.discarding());
            } catch (IOException e) {
                // counted as status 0
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            String key = kind + " " + (response == null ? 0 : response.statusCode());
            byKindAndStatus.computeIfAbsent(key, k -> new LongAdder()).increment();
            return response;
        }
    }
}
