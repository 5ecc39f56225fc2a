package dev.agora.launcher.cluster;

import dev.agora.launcher.credentials.Credentials;
import dev.agora.local.cluster.Health;
import dev.agora.local.cluster.LocalProfile;
import dev.agora.local.postgres.DatabaseOwners;
import dev.agora.local.postgres.EmbeddedPostgresServer;
import dev.agora.local.process.ServiceProcess;
import dev.agora.local.process.TestAotCaches;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Brings a {@link ClusterSpec} to life: data directory, PostgreSQL, jars, then the instances in waves. */
final class ClusterStarter {

    private static final Logger log = LoggerFactory.getLogger(ClusterStarter.class);
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration SERVING_TIMEOUT = Duration.ofSeconds(90);
    private static final String MARKER = "agora-cluster.txt";

    /**
     * Start order. All at once is the default: services tolerate absent peers (their load balancers health-check
     * replicas), and on a small machine the CPU is the bottleneck either way, so waves only add waiting.
     */
    private static final List<List<Tier>> WAVES = "staged".equals(System.getProperty("agora.cluster.start-order"))
            ? List.of(List.of(Tier.CATALOG, Tier.EXCHANGE), List.of(Tier.ORDER), List.of(Tier.FRONTEND))
            : List.of(List.of(Tier.CATALOG, Tier.EXCHANGE, Tier.ORDER, Tier.FRONTEND));

    /**
     * Instances starting at once, in the order they are listed (catalogs and order services before frontends). All
     * of them at once costs no less CPU in total, but each start then takes as long as all of them: eighteen
     * throughput JVMs on two cores (the frontends experiment's 16 frontends) took each past its ready timeout.
     * A bound keeps every start within it and the cluster's total start time about the same.
     * {@code -Dagora.cluster.max-parallel-starts} overrides it.
     */
    static final int MAX_PARALLEL_STARTS = Integer.getInteger(
            "agora.cluster.max-parallel-starts",
            Math.max(6, 3 * Runtime.getRuntime().availableProcessors()));

    /** Kept by {@code --fresh}: derived from the build, not state, and slow to make again. */
    private static final List<String> BUILD_CACHES = List.of("jars", "aot");

    /**
     * Tests' clusters ({@code -Dagora.cluster.test-aot-caches=true}, which the launcher's and perf's test runs set):
     * every tier runs from its exec jar's extracted copy and AOT cache in {@code <module>/target/test-aot}, made once
     * per build and shared with every other test process of that jar ({@link TestAotCaches}), whatever the spec says
     * about AOT caches. A test's cluster lives in a fresh data directory, so it would otherwise either run without a
     * cache (a C1 start of eight JVMs took 60-70 s each on two cores) or train four caches for one cluster.
     */
    private static final boolean TEST_AOT_CACHES =
            Boolean.getBoolean("agora.cluster.test-aot-caches") && TestAotCaches.enabled();

    /** A background training run may take long on a busy machine: it holds nothing up. */
    private static final Duration BACKGROUND_TRAINING_TIMEOUT = Duration.ofMinutes(20);

    private final ClusterSpec spec;
    private final StartProgress progress;
    private final Cluster.AotTraining training;
    /** Where every link goes through a proxy of its own; null when instances call each other directly. */
    private final NetworkLinks links;
    /** Tiers whose AOT cache is to be trained once the cluster is ready. */
    private final List<Runnable> laterTraining = new ArrayList<>();

    ClusterStarter(ClusterSpec spec) {
        this(spec, StartProgress.NONE, Cluster.AotTraining.BEFORE_START);
    }

    ClusterStarter(ClusterSpec spec, StartProgress progress, Cluster.AotTraining training) {
        this(spec, progress, training, null);
    }

    ClusterStarter(ClusterSpec spec, StartProgress progress, Cluster.AotTraining training, NetworkLinks links) {
        this.spec = spec;
        this.progress = progress;
        this.training = training;
        this.links = links;
    }

    Cluster start() {
        long started = System.nanoTime();
        prepareDataDirectory();
        // Before any frontend starts: they create the demo users and clients from this file.
        Credentials credentials =
                Credentials.ensure(Cluster.credentialsFile(spec), Credentials.tokenUrlOf(url(Tier.FRONTEND, 1)));
        Cluster.requirePortsFree(wellKnownPorts());
        progress.update("postgres", "starting", false);
        EmbeddedPostgresServer postgres;
        try {
            postgres = EmbeddedPostgresServer.start(spec.dataDirectory().resolve("postgres"), spec.postgresPort());
        } catch (RuntimeException e) {
            progress.update("postgres", "failed: " + e.getMessage(), true);
            throw e;
        }
        Shutdown shutdown = new Shutdown(postgres);
        Thread hook = new Thread(shutdown, "agora-cluster-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            // Each tier logs in as its own role, owner of its database only (replicas of a tier share it).
            Map<Tier, DatabaseOwners.Login> databaseLogins = new EnumMap<>(Tier.class);
            for (Tier tier : activeTiers()) {
                tier.database()
                        .ifPresent(database -> databaseLogins.put(tier, DatabaseOwners.ensure(postgres, database)));
            }
            if (links != null) links.open(spec, postgres.port());
            long postgresReady = System.nanoTime();
            progress.update(
                    "postgres",
                    "ready on port " + postgres.port() + " in " + seconds(Duration.ofNanos(postgresReady - started)),
                    true);
            Map<Tier, ServiceLaunch> launches = prepareLaunches(postgres, databaseLogins);
            long prepared = System.nanoTime();

            List<Cluster.Member> members = new ArrayList<>();
            for (Tier tier : activeTiers()) {
                ServiceLaunch launch = launches.get(tier);
                for (int index = 1; index <= spec.replicas(tier); index++) {
                    String name = tier.instanceName(index);
                    ServiceProcess process = ServiceProcess.builder(
                                    name, launch.jar(), tier.port(index, spec.portOffset()))
                            .jvmOptions(launch.jvmOptions())
                            .env(environment(tier, index, postgres, databaseLogins))
                            .logFile(spec.dataDirectory().resolve("logs").resolve(name + ".log"))
                            .build();
                    members.add(new Cluster.Member(name, tier, process));
                    shutdown.add(process);
                    progress.update(name, "waiting", false);
                }
            }
            Map<String, Duration> readiness = new LinkedHashMap<>();
            Map<String, Duration> cpu = new LinkedHashMap<>();
            // The exchange's standby starts once the rest is up, so that exchange-1 is the active instance.
            List<List<Cluster.Member>> waves = new ArrayList<>();
            for (List<Tier> wave : WAVES) {
                waves.add(members.stream()
                        .filter(member -> wave.contains(member.tier()) && !isExchangeStandby(member))
                        .toList());
            }
            waves.add(members.stream().filter(ClusterStarter::isExchangeStandby).toList());
            Semaphore starting = new Semaphore(MAX_PARALLEL_STARTS, true);
            for (List<Cluster.Member> inWave : waves) {
                List<Readiness> times = Cluster.inParallel(inWave, member -> {
                    starting.acquireUninterruptibly();
                    try {
                        // Stopped (Ctrl-C) while this one waited for its turn: it would outlive the launcher.
                        if (shutdown.isDone()) throw new IllegalStateException("The cluster is stopping");
                        progress.update(
                                member.name(), "starting on " + member.process().baseUrl(), false);
                        Duration wall;
                        try {
                            wall = startAndAwait(member, READY_TIMEOUT, 0);
                        } catch (RuntimeException e) {
                            progress.update(
                                    member.name(),
                                    "failed, see " + member.process().logFile(),
                                    true);
                            throw e;
                        }
                        progress.update(
                                member.name(),
                                (isExchangeStandby(member) ? "standing by" : "ready") + " in " + seconds(wall) + " on "
                                        + member.process().baseUrl(),
                                true);
                        return new Readiness(wall, cpuTime(member.process().pid()));
                    } finally {
                        starting.release();
                    }
                });
                for (int i = 0; i < inWave.size(); i++) {
                    readiness.put(inWave.get(i).name(), times.get(i).wall());
                    cpu.put(inWave.get(i).name(), times.get(i).cpu());
                }
            }
            long instancesReady = System.nanoTime();
            List<String> frontends = members.stream()
                    .filter(member -> member.tier() == Tier.FRONTEND)
                    .map(member -> member.process().baseUrl())
                    .toList();
            if (!frontends.isEmpty()) progress.update("frontends", "checking they reach every tier", false);
            boolean serving = new ServingCheck().await(frontends, spec, credentials, SERVING_TIMEOUT);
            if (!frontends.isEmpty()) {
                progress.update(
                        "frontends",
                        serving
                                ? "reach every tier"
                                : "do not reach every tier yet after " + SERVING_TIMEOUT.toSeconds() + " s",
                        true);
            }
            StartupTimes times = new StartupTimes(
                    Duration.ofNanos(System.nanoTime() - started),
                    Duration.ofNanos(postgresReady - started),
                    Duration.ofNanos(prepared - postgresReady),
                    readiness,
                    Duration.ofNanos(System.nanoTime() - instancesReady),
                    cpu);
            log.info("Cluster ready in {} ms", times.total().toMillis());
            Cluster cluster = Cluster.assemble(spec, postgres, members, times, shutdown, hook);
            if (!laterTraining.isEmpty()) {
                cluster.trainInBackground(
                        Thread.ofPlatform().daemon().name("aot-training").start(() -> {
                            for (Runnable tier : laterTraining) {
                                if (Thread.currentThread().isInterrupted()) return;
                                tier.run();
                            }
                        }));
            }
            return cluster;
        } catch (RuntimeException e) {
            shutdown.run();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Interrupted by Ctrl-C: the hook has stopped everything already.
            }
            throw e;
        }
    }

    /**
     * Starts the member's process, waits for readiness (an exchange: until it is active or stands by, since a standby
     * is never ready) and returns the time in between.
     *
     * @param niceness CPU priority while starting (0 = normal), restored to normal once ready
     */
    static Duration startAndAwait(Cluster.Member member, Duration timeout, int niceness) {
        appendToLog(
                member.process().logFile(),
                "=== agora cluster: starting " + member.name() + " at " + Instant.now() + " ===\n");
        long started = System.nanoTime();
        member.process().start();
        if (niceness != 0) CpuPriority.set(member.process().pid(), niceness);
        try {
            if (member.tier() == Tier.EXCHANGE) {
                Health.awaitActiveOrStandby(member.process(), timeout);
            } else {
                member.process().awaitReady(timeout);
            }
        } finally {
            if (niceness != 0) CpuPriority.set(member.process().pid(), 0);
        }
        return Duration.ofNanos(System.nanoTime() - started);
    }

    private static boolean isExchangeStandby(Cluster.Member member) {
        return member.tier() == Tier.EXCHANGE && !member.name().equals(Tier.EXCHANGE.instanceName(1));
    }

    /** Start-to-ready of one instance: elapsed, and CPU time its process used. */
    private record Readiness(Duration wall, Duration cpu) {}

    /** CPU time the process has used so far (user + system), zero where the platform does not tell. */
    static Duration cpuTime(long pid) {
        return ProcessHandle.of(pid)
                .flatMap(process -> process.info().totalCpuDuration())
                .orElse(Duration.ZERO);
    }

    private List<Tier> activeTiers() {
        return List.of(Tier.values()).stream()
                .filter(tier -> spec.replicas(tier) > 0)
                .toList();
    }

    private Map<Tier, ServiceLaunch> prepareLaunches(
            EmbeddedPostgresServer postgres, Map<Tier, DatabaseOwners.Login> databaseLogins) {
        boolean aot = spec.aotCache() && AotCache.supported();
        if (spec.aotCache() && !aot) {
            // JDK 21-24 run the services as well, only without the cache: nothing to warn about.
            log.info("AOT cache needs JDK 25 or newer; running {} without it", Runtime.version());
        }
        List<Tier> tiers = activeTiers();
        List<ServiceLaunch> launches = Cluster.inParallel(tiers, tier -> {
            String step = tier.service() + " jar";
            if (TEST_AOT_CACHES) return fromTestAotCache(tier, step, postgres, databaseLogins);
            progress.update(step, "extracting " + tier.module() + " (when its build changed)", false);
            Path jar = JarSnapshots.extracted(tier.module(), spec.dataDirectory());
            if (!aot) {
                progress.update(
                        step, spec.aotCache() ? "ready (no AOT cache below JDK 25)" : "ready (no AOT cache)", true);
                return new ServiceLaunch(jar, spec.jvmOptions());
            }
            Map<String, String> trainingEnvironment =
                    new LinkedHashMap<>(environment(tier, 1, postgres, databaseLogins));
            trainingEnvironment.put("PORT", "0");
            trainingEnvironment.put("AGORA_EXCHANGE_TCP_PORT", "0");
            Path directory = spec.dataDirectory().resolve("aot").resolve(tier.service());
            if (training == Cluster.AotTraining.BEFORE_START) {
                return AotCache.prepare(
                        tier.module(),
                        jar,
                        directory,
                        spec.jvmOptions(),
                        trainingEnvironment,
                        state -> progress.update(step, state, false),
                        state -> progress.update(step, state, true));
            }
            ServiceLaunch cached = AotCache.cached(tier.module(), jar, directory, spec.jvmOptions());
            if (cached != null) {
                progress.update(step, "ready (AOT cache of this build)", true);
                return cached;
            }
            progress.update(step, "ready; its AOT cache is trained once the cluster runs, for the next start", true);
            synchronized (laterTraining) {
                laterTraining.add(() -> AotCache.train(
                        tier.module(),
                        jar,
                        directory,
                        spec.jvmOptions(),
                        trainingEnvironment,
                        BACKGROUND_TRAINING_TIMEOUT,
                        CpuPriority.RESTART_NICENESS));
            }
            return new ServiceLaunch(jar, spec.jvmOptions());
        });
        Map<Tier, ServiceLaunch> byTier = new EnumMap<>(Tier.class);
        for (int i = 0; i < tiers.size(); i++) byTier.put(tiers.get(i), launches.get(i));
        return byTier;
    }

    /**
     * The launch of {@code tier} from the build's test AOT cache ({@link #TEST_AOT_CACHES}), training it first (on a
     * throwaway database of this cluster's PostgreSQL) when no test of this build has yet.
     */
    private ServiceLaunch fromTestAotCache(
            Tier tier, String step, EmbeddedPostgresServer postgres, Map<Tier, DatabaseOwners.Login> databaseLogins) {
        progress.update(step, "the build's test AOT cache of " + tier.module(), false);
        Map<String, String> trainingEnvironment = new LinkedHashMap<>(environment(tier, 1, postgres, databaseLogins));
        trainingEnvironment.put("PORT", "0");
        ServiceProcess.Builder builder = ServiceProcess.builder(tier.service(), JarSnapshots.locate(tier.module()), 0)
                .jvmOptions(spec.jvmOptions())
                .env(trainingEnvironment);
        TestAotCaches.use(builder, database -> LocalProfile.database(postgres, database));
        progress.update(step, "ready (the build's test AOT cache)", true);
        return new ServiceLaunch(builder.jar(), builder.jvmOptions());
    }

    /** The environment of one instance; {@code postgres} is only asked for tiers with a database URL. */
    Map<String, String> environment(
            Tier tier, int index, EmbeddedPostgresServer postgres, Map<Tier, DatabaseOwners.Login> databaseLogins) {
        Map<String, String> env = new LinkedHashMap<>();
        // The profile whose development secrets the services refuse anywhere else (SECURITY.md); a --env entry can
        // still override it, e.g. to see a service refuse to start.
        env.putAll(LocalProfile.environment());
        env.put("PORT", Integer.toString(tier.port(index, spec.portOffset())));
        for (Tier peer : Tier.values()) {
            // Empty for an absent tier, so no instance falls back to the default ports of some other cluster.
            env.put(peer.instancesVariable(), String.join(",", urls(peer)));
        }
        if (spec.frontends() == 0) {
            // The token keys' authorities default to the frontends; with none, name this cluster's would-be first
            // one (nothing listens there, so no token is accepted) rather than an empty list a service refuses, or
            // the default ports of some other cluster.
            env.put("AGORA_AUTHORITIES", url(Tier.FRONTEND, 1));
        }
        if (tier == Tier.CATALOG) {
            // Book files: each catalog's blobs and staging in a folder of its own under the data directory.
            env.put(
                    "AGORA_FILES_DIRECTORY",
                    spec.dataDirectory()
                            .resolve("files")
                            .resolve(tier.instanceName(index))
                            .toString());
        }
        if (tier == Tier.FRONTEND) {
            env.put(
                    "AGORA_IDENTITY_SEED_FILE",
                    Cluster.credentialsFile(spec).toAbsolutePath().toString());
            // A lab cluster: the seed experiments send thousands of requests a second from one address as one
            // customer, which production rate limits exist to refuse. -e frontend:AGORA_LIMITS_RATES_ENABLED=true
            // turns them on. Body caps stay.
            env.put("AGORA_LIMITS_RATES_ENABLED", "false");
        }
        DatabaseOwners.Login login = databaseLogins.get(tier);
        if (login != null) {
            env.putAll(LocalProfile.database(login));
        }
        if (tier == Tier.EXCHANGE) {
            env.put("AGORA_EXCHANGE_TCP_PORT", Integer.toString(spec.exchangeTcpPort(index)));
            // Like every HTTP port of a local cluster (ServiceProcess binds 127.0.0.1), not on every interface.
            env.put("AGORA_EXCHANGE_TCP_HOST", "127.0.0.1");
        }
        if (links != null) links.route(tier, index, spec, env);
        env.putAll(spec.environmentByService().getOrDefault(ClusterSpec.ALL_SERVICES, Map.of()));
        env.putAll(spec.environmentByService().getOrDefault(tier.service(), Map.of()));
        env.putAll(spec.environmentByService().getOrDefault(tier.instanceName(index), Map.of()));
        return env;
    }

    private List<String> urls(Tier tier) {
        return IntStream.rangeClosed(1, spec.replicas(tier))
                .mapToObj(index -> url(tier, index))
                .toList();
    }

    private String url(Tier tier, int index) {
        return "http://127.0.0.1:" + tier.port(index, spec.portOffset());
    }

    private List<Integer> wellKnownPorts() {
        List<Integer> ports = activeTiers().stream()
                .flatMap(tier -> IntStream.rangeClosed(1, spec.replicas(tier))
                        .mapToObj(index -> tier.port(index, spec.portOffset())))
                .collect(Collectors.toCollection(ArrayList::new));
        for (int index = 1; index <= spec.replicas(Tier.EXCHANGE); index++) ports.add(spec.exchangeTcpPort(index));
        return ports;
    }

    /**
     * Creates the data directory, or wipes it first for a fresh start. Refuses to wipe a non-empty directory that
     * a cluster did not create, so a mistyped {@code --data-dir} cannot delete someone's files.
     */
    private void prepareDataDirectory() {
        Path directory = spec.dataDirectory();
        Path marker = directory.resolve(MARKER);
        try {
            if (spec.fresh() && Files.isDirectory(directory)) {
                boolean empty;
                try (var entries = Files.list(directory)) {
                    empty = entries.findAny().isEmpty();
                }
                if (!empty && !Files.exists(marker)) {
                    throw new IllegalStateException(
                            directory + " is not a cluster data directory (no " + MARKER + "); refusing to wipe it");
                }
                // State goes; the extracted jars and AOT caches stay, so a fresh start costs no new training.
                try (var entries = Files.list(directory)) {
                    for (Path entry : entries.toList()) {
                        if (!BUILD_CACHES.contains(entry.getFileName().toString())) Cluster.deleteRecursively(entry);
                    }
                }
            }
            Files.createDirectories(directory);
            if (!Files.exists(marker)) {
                Files.writeString(marker, "Data of a local Agora cluster (PostgreSQL, logs, jars, AOT caches).\n");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Data directory " + directory, e);
        }
    }

    private static String seconds(Duration duration) {
        return String.format("%.1f s", duration.toMillis() / 1000.0);
    }

    private static void appendToLog(Path logFile, String line) {
        try {
            Files.createDirectories(logFile.getParent());
            Files.writeString(logFile, line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
