package dev.agora.launcher.cluster;

import dev.agora.launcher.credentials.Credentials;
import dev.agora.local.cluster.FreePorts;
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
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Brings a {@link ClusterSpec} to life: data directory, PostgreSQL, jars, then the instances in phases. */
final class ClusterStarter {

    private static final Logger log = LoggerFactory.getLogger(ClusterStarter.class);
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration SERVING_TIMEOUT = Duration.ofSeconds(90);
    private static final String MARKER = "agora-cluster.txt";

    /**
     * Start order ({@code -Dagora.cluster.start-order}). By default the first replica of each tier a lookup and a buy
     * need (catalog-1, order-1, frontend-1, which also issues the tokens) starts alone, and everything else once
     * those serve, at a low CPU priority: on two cores, eight JVMs starting together each took 35-60 s, so the first
     * buy waited for all of them. {@code all-at-once} starts every instance together (the order of earlier builds,
     * kept to compare against).
     */
    static final boolean FIRST_REPLICAS_FIRST = !"all-at-once".equals(System.getProperty("agora.cluster.start-order"));

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

    /**
     * How long the instances after the first replicas, and a restarted instance ({@link Cluster#restart}), start at a
     * low priority at most: long enough for someone's first requests to be answered at full speed and for the
     * heaviest seconds of a restart to pass beside the survivors, short enough that on a machine busy with other work
     * (where a low-priority JVM barely runs) they still start within their ready timeout.
     */
    static final Duration LOW_PRIORITY_AT_MOST = Duration.ofSeconds(30);

    /**
     * How long the later replicas wait at most for the first ones to serve a lookup and an order read: on a quiet
     * machine about a second; on one busy with other work the later replicas start anyway.
     */
    private static final Duration FIRST_SERVING_AT_MOST = Duration.ofSeconds(10);

    /** {@code -Dagora.cluster.first-serving-check=false} starts the later replicas at once, to compare against. */
    private static final boolean CHECK_FIRST_SERVING =
            !"false".equals(System.getProperty("agora.cluster.first-serving-check"));

    /**
     * While an instance of the launcher's command starts, its C2 compiler threads run at the lowest CPU priority
     * (restored with the rest once it is ready, or after {@link #LOW_PRIORITY_AT_MOST}). Replaying the AOT cache's
     * profiles, C2 compiles the request path during the start (6-9 of a first replica's 15-25 CPU seconds),
     * which nothing waits for before the instance is ready; on two cores it took CPU from the three main threads that
     * the first buy does wait for. {@code -Dagora.cluster.compilers-behind=false} leaves them as they are, to compare.
     */
    static final boolean COMPILERS_BEHIND = !"false".equals(System.getProperty("agora.cluster.compilers-behind"));

    private static final int COMPILER_NICENESS = 19;
    private static final Duration COMPILER_THREADS_POLL = Duration.ofMillis(200);

    private static final String FLYWAY_ENABLED = "SPRING_FLYWAY_ENABLED";
    private static final String DDL_AUTO = "SPRING_JPA_HIBERNATE_DDL_AUTO";

    /** Where a frontend notes what it seeded from the demo credentials (the frontend's {@code SeedStamp}). */
    static final String SEED_STAMP = "AGORA_IDENTITY_SEED_STAMP";

    /** {@code -Dagora.cluster.start-beside-postgres=false} starts no instance before PostgreSQL, to compare against. */
    private static final boolean START_BESIDE_POSTGRES =
            !"false".equals(System.getProperty("agora.cluster.start-beside-postgres"));

    /** Hikari's wait for the database at a pool's first connection (Spring Boot's relaxed form of the property). */
    private static final String WAIT_FOR_DATABASE = "SPRING_DATASOURCE_HIKARI_INITIALIZATION_FAIL_TIMEOUT";

    /** As long as the launcher itself waits for PostgreSQL to start ({@code EmbeddedPostgresServer}). */
    private static final Duration WAIT_FOR_DATABASE_AT_MOST = Duration.ofSeconds(60);

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

    private final SchemaStamps schemaStamps;
    /** Null until it is started; trainings after the start use it. */
    private volatile EmbeddedPostgresServer postgres;
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
        this.schemaStamps = new SchemaStamps(spec.dataDirectory());
    }

    Cluster start() {
        long started = System.nanoTime();
        if (training == Cluster.AotTraining.AFTER_READY && COMPILERS_BEHIND) {
            // The launcher's own C2 (seconds of CPU by the first buy, compiling its polling and HTTP client) need not
            // run beside the first replicas' main threads either; the launcher is idle once the cluster serves.
            CpuPriority.lowerCompilerThreads(ProcessHandle.current().pid(), COMPILER_NICENESS, new HashSet<>());
        }
        prepareDataDirectory();
        // Before any frontend starts: they create the demo users and clients from this file.
        Credentials credentials =
                Credentials.ensure(Cluster.credentialsFile(spec), Credentials.tokenUrlOf(url(Tier.FRONTEND, 1)));
        Cluster.requirePortsFree(wellKnownPorts());
        int postgresPort = spec.postgresPort();
        Map<Tier, DatabaseOwners.Login> keptLogins = null;
        if (mayStartBesidePostgres()) {
            // The instances need the port before PostgreSQL has it: take a free one now rather than after.
            if (postgresPort == 0) postgresPort = FreePorts.next();
            keptLogins = keptLogins(postgresPort);
        }
        Shutdown shutdown = new Shutdown();
        Thread hook = new Thread(shutdown, "agora-cluster-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            Semaphore starting = new Semaphore(MAX_PARALLEL_STARTS, true);
            Map<Tier, ServiceLaunch> launches = null;
            List<Cluster.Member> members = null;
            List<Phase> phases = null;
            CompletableFuture<List<Readiness>> besidePostgres = null;
            if (keptLogins != null) {
                // A restart: every role's login is known, so the first replicas start while PostgreSQL starts and
                // recovers; each waits for it at its first connection (Hikari's initialization-fail-timeout).
                launches = prepareLaunches(keptLogins, credentials);
                members = members(launches, keptLogins, shutdown, true);
                phases = phases(members);
                showWaiting(members, phases);
                Phase first = phases.getFirst();
                besidePostgres = CompletableFuture.supplyAsync(
                        () -> startPhase(first, starting, shutdown),
                        runnable -> Thread.ofPlatform().name("first-replicas").start(runnable));
            }
            progress.update("postgres", "starting", false);
            try {
                postgres = EmbeddedPostgresServer.start(spec.dataDirectory().resolve("postgres"), postgresPort);
            } catch (RuntimeException e) {
                progress.update("postgres", "failed: " + e.getMessage(), true);
                throw e;
            }
            shutdown.postgres(postgres);
            // Each tier logs in as its own role, owner of its database only (replicas of a tier share it); the
            // password is kept in the data directory, so that the next start knows it before PostgreSQL is up.
            Map<Tier, DatabaseOwners.Login> databaseLogins = new EnumMap<>(Tier.class);
            for (Tier tier : activeTiers()) {
                tier.database()
                        .ifPresent(database -> databaseLogins.put(
                                tier, DatabaseOwners.ensure(postgres, database, passwordFile(database))));
            }
            if (links != null) links.open(spec, postgres.port());
            long postgresReady = System.nanoTime();
            progress.update(
                    "postgres",
                    "ready on port " + postgres.port() + " in " + seconds(Duration.ofNanos(postgresReady - started)),
                    true);
            if (keptLogins == null) {
                launches = prepareLaunches(databaseLogins, credentials);
                members = members(launches, databaseLogins, shutdown, false);
                phases = phases(members);
                showWaiting(members, phases);
            }
            long prepared = System.nanoTime();

            Map<String, Duration> readiness = new LinkedHashMap<>();
            Map<String, Duration> cpu = new LinkedHashMap<>();
            // Say when the first replicas serve, while the others still start (FIRST_REPLICAS_FIRST).
            String firstFrontend = spec.frontends() > 0 ? url(Tier.FRONTEND, 1) : null;
            boolean servingEarly = false;
            for (Phase phase : phases) {
                if (FIRST_REPLICAS_FIRST && phase != phases.getFirst() && firstFrontend != null && !servingEarly) {
                    servingEarly = true;
                    if (phase.niceness() != 0 && CHECK_FIRST_SERVING) {
                        // Someone waits for the first answers (the launcher's command): the others start once the
                        // first replicas have served the path of a buy once, not beside its first cold run.
                        progress.update("bookstore", "first replicas ready; checking they serve", false);
                        new ServingCheck().awaitBookstore(firstFrontend, spec, credentials, FIRST_SERVING_AT_MOST);
                    }
                    progress.update(
                            "bookstore",
                            "first replicas ready: lookups and buys at " + firstFrontend + "; the others start"
                                    + (phase.niceness() != 0 ? " at low CPU priority" : ""),
                            false);
                }
                List<Readiness> times = phase == phases.getFirst() && besidePostgres != null
                        ? joined(besidePostgres)
                        : startPhase(phase, starting, shutdown);
                for (int i = 0; i < phase.members().size(); i++) {
                    readiness.put(phase.members().get(i).name(), times.get(i).wall());
                    cpu.put(phase.members().get(i).name(), times.get(i).cpu());
                }
            }
            if (servingEarly) progress.update("bookstore", "every replica ready", true);
            // Every first replica has migrated and checked its database with this build: the next start need not.
            for (Tier tier : activeTiers()) {
                Path jar = launches.get(tier).jar();
                tier.database().ifPresent(database -> schemaStamps.record(database, jar));
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
     * Whether the first replicas may start beside PostgreSQL ({@code -Dagora.cluster.start-beside-postgres=false}
     * never, to compare against): only for the launcher's command on an existing database (a new one has no roles
     * yet), with no proxies (they need PostgreSQL's port first) and no test AOT caches (trained on a database of this
     * PostgreSQL before the start).
     */
    private boolean mayStartBesidePostgres() {
        return START_BESIDE_POSTGRES
                && FIRST_REPLICAS_FIRST
                && training == Cluster.AotTraining.AFTER_READY
                && !TEST_AOT_CACHES
                && links == null
                && Files.isRegularFile(spec.dataDirectory().resolve("postgres").resolve("PG_VERSION"));
    }

    /** Every tier's login from the passwords kept in the data directory, or null when one is missing. */
    private Map<Tier, DatabaseOwners.Login> keptLogins(int postgresPort) {
        Map<Tier, DatabaseOwners.Login> logins = new EnumMap<>(Tier.class);
        for (Tier tier : activeTiers()) {
            String database = tier.database().orElse(null);
            if (database == null) continue;
            DatabaseOwners.Login login = DatabaseOwners.kept(
                    EmbeddedPostgresServer.jdbcUrl(postgresPort, database), database, passwordFile(database));
            if (login == null) return null;
            logins.put(tier, login);
        }
        return logins;
    }

    private Path passwordFile(String database) {
        return spec.dataDirectory().resolve("logins").resolve(database + ".password");
    }

    /** Every instance's process, not started yet, in the order of {@link #activeTiers()}. */
    private List<Cluster.Member> members(
            Map<Tier, ServiceLaunch> launches,
            Map<Tier, DatabaseOwners.Login> databaseLogins,
            Shutdown shutdown,
            boolean besidePostgres) {
        List<Cluster.Member> members = new ArrayList<>();
        for (Tier tier : activeTiers()) {
            ServiceLaunch launch = launches.get(tier);
            for (int index = 1; index <= spec.replicas(tier); index++) {
                String name = tier.instanceName(index);
                Map<String, String> env = environment(tier, index, postgres, databaseLogins);
                if (index == 1) withoutRepeatedSchemaCheck(tier, launch, env);
                if (besidePostgres && index == 1 && tier.database().isPresent()) {
                    // Started before PostgreSQL listens: the pool's first connection waits for it (retrying once a
                    // second) instead of failing the start; later connections fail fast as ever.
                    env.putIfAbsent(WAIT_FOR_DATABASE, Long.toString(WAIT_FOR_DATABASE_AT_MOST.toMillis()));
                }
                ServiceProcess process = ServiceProcess.builder(name, launch.jar(), tier.port(index, spec.portOffset()))
                        .jvmOptions(launch.jvmOptions())
                        .env(env)
                        .logFile(spec.dataDirectory().resolve("logs").resolve(name + ".log"))
                        .build();
                members.add(new Cluster.Member(name, tier, process));
                shutdown.add(process);
            }
        }
        return members;
    }

    private void showWaiting(List<Cluster.Member> members, List<Phase> phases) {
        for (Cluster.Member member : members) {
            String waiting;
            if (phases.getFirst().members().contains(member)) {
                waiting = "waiting";
            } else if (isExchangeStandby(member)) {
                waiting = "waiting for " + Tier.EXCHANGE.instanceName(1) + " to lead";
            } else {
                waiting = "waiting for the first replicas";
            }
            progress.update(member.name(), waiting, false);
        }
    }

    /** Starts {@code phase}'s instances together (at most {@link #MAX_PARALLEL_STARTS} at a time) until ready. */
    private List<Readiness> startPhase(Phase phase, Semaphore starting, Shutdown shutdown) {
        return Cluster.inParallel(phase.members(), member -> {
            starting.acquireUninterruptibly();
            try {
                // Stopped (Ctrl-C) while this one waited for its turn: it would outlive the launcher.
                if (shutdown.isDone()) throw new IllegalStateException("The cluster is stopping");
                progress.update(
                        member.name(),
                        "starting on " + member.process().baseUrl()
                                + (phase.niceness() != 0 ? " (low CPU priority)" : ""),
                        false);
                Duration wall;
                try {
                    wall = startAndAwait(
                            member,
                            READY_TIMEOUT,
                            phase.niceness(),
                            phase.compilerNiceness(),
                            LOW_PRIORITY_AT_MOST,
                            phase.niceness() != 0);
                } catch (RuntimeException e) {
                    progress.update(
                            member.name(), "failed, see " + member.process().logFile(), true);
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
    }

    private static <T> T joined(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) throw cause;
            if (e.getCause() instanceof Error error) throw error;
            throw e;
        }
    }

    /**
     * Starts the member's process, waits for readiness (an exchange: until it is active or stands by, since a standby
     * is never ready) and returns the time in between.
     *
     * @param niceness CPU priority while starting (0 = normal), restored to normal once ready or after {@code
     *     lowPriorityAtMost}, whichever comes first
     * @param compilerNiceness CPU priority of its C2 compiler threads while starting (0 = as the others), restored
     *     the same way
     * @param warmStandby an exchange standby counts as standing by once it has run its order path and its compilers
     *     have gone quiet, at {@code niceness} (a cluster's start; a restart's caller measures the standby itself)
     */
    static Duration startAndAwait(
            Cluster.Member member,
            Duration timeout,
            int niceness,
            int compilerNiceness,
            Duration lowPriorityAtMost,
            boolean warmStandby) {
        appendToLog(
                member.process().logFile(),
                "=== agora cluster: starting " + member.name() + " at " + Instant.now() + " ===\n");
        long started = System.nanoTime();
        member.process().start();
        long pid = member.process().pid();
        Thread restore = null;
        if (niceness != 0 || compilerNiceness != 0) {
            CpuPriority.set(pid, niceness);
            restore = Thread.ofVirtual().name("priority-" + member.name()).start(() -> {
                try {
                    long until = System.nanoTime() + lowPriorityAtMost.toNanos();
                    Set<String> lowered = new HashSet<>();
                    while (compilerNiceness != 0 && System.nanoTime() < until) {
                        CpuPriority.lowerCompilerThreads(pid, compilerNiceness, lowered);
                        Thread.sleep(COMPILER_THREADS_POLL);
                    }
                    Thread.sleep(Math.max(0, (until - System.nanoTime()) / 1_000_000));
                    CpuPriority.set(pid, 0);
                } catch (InterruptedException ready) {
                    // restored below
                }
            });
        }
        try {
            if (member.tier() == Tier.EXCHANGE) {
                Health.awaitActiveOrStandby(member.process(), timeout);
                // A standby started beside serving replicas counts as standing by once it has warmed its order path
                // and compiled it, at the low priority it started with: at normal priority that work took most of a
                // core from the first buyers right after the cluster was ready.
                if (warmStandby && isExchangeStandby(member)) {
                    long until = started + lowPriorityAtMost.toNanos();
                    Health.awaitStandbyWarmedUp(
                            member.process().baseUrl(), Duration.ofNanos(Math.max(0, until - System.nanoTime())));
                    CpuPriority.awaitCompilersQuiet(pid, until);
                }
            } else {
                member.process().awaitReady(timeout);
            }
        } finally {
            if (restore != null) {
                restore.interrupt();
                // Not while it may still lower a compiler thread, which would then stay low.
                joinUninterruptibly(restore);
                CpuPriority.set(pid, 0);
            }
        }
        return Duration.ofNanos(System.nanoTime() - started);
    }

    private static void joinUninterruptibly(Thread thread) {
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }

    /**
     * Instances that start together, at one CPU priority (niceness, 0 = normal), their C2 compiler threads at another
     * ({@link #COMPILERS_BEHIND}), after the previous phase's.
     */
    record Phase(List<Cluster.Member> members, int niceness, int compilerNiceness) {}

    /**
     * The order in which {@code members} start ({@link #FIRST_REPLICAS_FIRST}): the first replica of each bookstore
     * tier; then the other replicas and the active exchange, for the launcher's command at a low CPU priority
     * (restored once each is ready, or after {@link #LOW_PRIORITY_AT_MOST}), so that the first lookups and buys are not slowed by them; then the exchange's
     * standby, so that exchange-1 leads.
     * A cluster without bookstore tiers starts its exchange first. Empty phases are left out.
     */
    List<Phase> phases(List<Cluster.Member> members) {
        List<Cluster.Member> standby =
                members.stream().filter(ClusterStarter::isExchangeStandby).toList();
        List<Cluster.Member> others =
                members.stream().filter(member -> !isExchangeStandby(member)).toList();
        List<Phase> phases = new ArrayList<>();
        if (FIRST_REPLICAS_FIRST) {
            boolean bookstore = others.stream().anyMatch(member -> member.tier() != Tier.EXCHANGE);
            List<Cluster.Member> first = others.stream()
                    .filter(member -> isFirstReplica(member) && (member.tier() != Tier.EXCHANGE || !bookstore))
                    .toList();
            // Low priority only for the launcher's command, where someone waits for the first answers: a test or an
            // experiment waits for the whole cluster, and beside other busy processes (a CI build running two
            // modules' tests) niced instances would barely start.
            int later = training == Cluster.AotTraining.AFTER_READY ? CpuPriority.RESTART_NICENESS : 0;
            int compilers = training == Cluster.AotTraining.AFTER_READY && COMPILERS_BEHIND ? COMPILER_NICENESS : 0;
            phases.add(new Phase(first, 0, compilers));
            phases.add(new Phase(
                    others.stream().filter(member -> !first.contains(member)).toList(), later, compilers));
            phases.add(new Phase(standby, later, compilers));
        } else {
            phases.add(new Phase(others, 0, 0));
            phases.add(new Phase(standby, 0, 0));
        }
        return phases.stream().filter(phase -> !phase.members().isEmpty()).toList();
    }

    private static boolean isFirstReplica(Cluster.Member member) {
        return member.name().equals(member.tier().instanceName(1));
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

    /**
     * Each tier's jar and JVM options; the trainings it leaves for after the start, and a test AOT cache's or a
     * training before the start (which happen only where the instances start after PostgreSQL), use {@link
     * #postgres}.
     */
    private Map<Tier, ServiceLaunch> prepareLaunches(
            Map<Tier, DatabaseOwners.Login> databaseLogins, Credentials credentials) {
        boolean aot = spec.aotCache() && AotCache.supported();
        if (spec.aotCache() && !aot) {
            // JDK 21-24 run the services as well, only without the cache: nothing to warn about.
            log.info("AOT cache needs JDK 25 or newer; running {} without it", Runtime.version());
        }
        List<Tier> tiers = activeTiers();
        Map<Tier, ServiceLaunch> byTier = new EnumMap<>(Tier.class);
        if (TEST_AOT_CACHES) {
            List<ServiceLaunch> launches = Cluster.inParallel(
                    tiers, tier -> fromTestAotCache(tier, tier.service() + " jar", postgres, databaseLogins));
            for (int i = 0; i < tiers.size(); i++) byTier.put(tiers.get(i), launches.get(i));
            return byTier;
        }
        List<Path> jars = Cluster.inParallel(tiers, tier -> {
            progress.update(step(tier), "extracting " + tier.module() + " (when its build changed)", false);
            return JarSnapshots.extracted(tier.module(), spec.dataDirectory());
        });
        List<Tier> untrained = new ArrayList<>();
        for (int i = 0; i < tiers.size(); i++) {
            Tier tier = tiers.get(i);
            Path jar = jars.get(i);
            ServiceLaunch cached = aot
                    ? AotCache.cached(tier.module(), jar, aotDirectory(tier), spec.jvmOptions(), recipe(tier))
                    : null;
            if (cached != null) {
                progress.update(step(tier), "ready (AOT cache of this build)", true);
                byTier.put(tier, cached);
            } else {
                if (!aot) {
                    progress.update(
                            step(tier),
                            spec.aotCache() ? "ready (no AOT cache below JDK 25)" : "ready (no AOT cache)",
                            true);
                }
                byTier.put(tier, new ServiceLaunch(jar, spec.jvmOptions()));
                if (aot) untrained.add(tier);
            }
        }
        if (untrained.isEmpty()) return byTier;
        List<Runnable> trainings = new ArrayList<>();
        List<Tier> bookstore =
                untrained.stream().filter(BookstoreTraining.TIERS::contains).toList();
        if (!bookstore.isEmpty()) {
            // Trained together, each on the others' real requests: all three, also those whose cache is valid.
            trainings.add(() -> trainBookstore(postgres, databaseLogins, credentials, bookstore));
        }
        for (Tier tier : untrained) {
            if (!BookstoreTraining.TIERS.contains(tier))
                trainings.add(() -> trainAlone(tier, byTier.get(tier), postgres, databaseLogins));
        }
        if (training == Cluster.AotTraining.BEFORE_START) {
            for (Runnable run : trainings) run.run();
            for (Tier tier : untrained) {
                ServiceLaunch cached = AotCache.cached(
                        tier.module(), byTier.get(tier).jar(), aotDirectory(tier), spec.jvmOptions(), recipe(tier));
                if (cached != null) {
                    byTier.put(tier, cached);
                    progress.update(step(tier), "ready (AOT cache trained now)", true);
                } else {
                    // Slower without the cache, but running: the start goes on, and the next one trains again.
                    progress.update(
                            step(tier),
                            "running without AOT cache: training failed, see "
                                    + aotDirectory(tier).resolve("training.log"),
                            true);
                }
            }
        } else {
            for (Tier tier : untrained) {
                progress.update(
                        step(tier), "ready; its AOT cache is trained once the cluster runs, for the next start", true);
            }
            laterTraining.addAll(trainings);
        }
        return byTier;
    }

    /**
     * The joint training of {@link BookstoreTraining}: at normal priority before the start (perf's clusters), at a
     * low one in the background after it (the launcher's command).
     */
    private void trainBookstore(
            EmbeddedPostgresServer postgres,
            Map<Tier, DatabaseOwners.Login> databaseLogins,
            Credentials credentials,
            List<Tier> untrained) {
        boolean before = training == Cluster.AotTraining.BEFORE_START;
        List<BookstoreTraining.Trainee> trainees = new ArrayList<>();
        for (Tier tier : BookstoreTraining.TIERS) {
            if (before && untrained.contains(tier)) {
                progress.update(
                        step(tier),
                        "training its AOT cache with catalog, order and frontend: start + " + BookstoreTraining.ROUNDS
                                + " real buys, lookups and searches (once per change)",
                        false);
            }
            trainees.add(new BookstoreTraining.Trainee(
                    tier,
                    JarSnapshots.extracted(tier.module(), spec.dataDirectory()),
                    aotDirectory(tier),
                    environment(tier, 1, postgres, databaseLogins)));
        }
        new BookstoreTraining(
                        postgres,
                        credentials,
                        AotCache.withoutCds(spec.jvmOptions()),
                        spec.dataDirectory().resolve("aot").resolve("training-files"))
                .train(trainees, before ? 0 : CpuPriority.RESTART_NICENESS);
    }

    /** The exchange's training: it serves no buy, so it trains alone, on its start ({@link AotCache}). */
    private void trainAlone(
            Tier tier,
            ServiceLaunch launch,
            EmbeddedPostgresServer postgres,
            Map<Tier, DatabaseOwners.Login> databaseLogins) {
        Map<String, String> trainingEnvironment = new LinkedHashMap<>(environment(tier, 1, postgres, databaseLogins));
        trainingEnvironment.put("AGORA_EXCHANGE_TCP_PORT", "0");
        boolean before = training == Cluster.AotTraining.BEFORE_START;
        if (before) {
            progress.update(step(tier), "training its AOT cache on its start (once per change)", false);
        }
        AotCache.train(
                tier.module(),
                launch.jar(),
                aotDirectory(tier),
                spec.jvmOptions(),
                trainingEnvironment,
                before ? AotCache.TRAINING_TIMEOUT : BACKGROUND_TRAINING_TIMEOUT,
                before ? 0 : CpuPriority.RESTART_NICENESS);
    }

    /** Whether {@code -e} set {@code key} for any of {@code targets} (all services, a tier's service, an instance). */
    private boolean given(String key, String... targets) {
        return Arrays.stream(targets).anyMatch(target -> spec.environmentByService()
                .getOrDefault(target, Map.of())
                .containsKey(key));
    }

    /**
     * The first replica of a tier also skips Flyway and Hibernate's schema check when this build already ran them on
     * this database ({@link SchemaStamps}): on a restart, 1-2 CPU seconds of each first replica's start that check
     * what has not changed. An {@code -e} entry for either setting still holds.
     */
    private void withoutRepeatedSchemaCheck(Tier tier, ServiceLaunch launch, Map<String, String> env) {
        String database = tier.database().orElse(null);
        if (database == null || !schemaStamps.current(database, launch.jar())) return;
        for (String key : List.of(FLYWAY_ENABLED, DDL_AUTO)) {
            if (!given(key, ClusterSpec.ALL_SERVICES, tier.service(), tier.instanceName(1))) {
                env.put(key, key.equals(FLYWAY_ENABLED) ? "false" : "none");
            }
        }
    }

    private Path aotDirectory(Tier tier) {
        return spec.dataDirectory().resolve("aot").resolve(tier.service());
    }

    private static String recipe(Tier tier) {
        return BookstoreTraining.TIERS.contains(tier) ? BookstoreTraining.RECIPE : AotCache.SOLO_RECIPE;
    }

    private static String step(Tier tier) {
        return tier.service() + " jar";
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
            env.put("AGORA_SECURITY_AUTHORITIES", url(Tier.FRONTEND, 1));
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
            // Beside the file: a restart whose file and identities are unchanged hashes no secret again.
            env.put(SEED_STAMP, seedStamp(spec).toAbsolutePath().toString());
            // A lab cluster: the seed experiments send thousands of requests a second from one address as one
            // customer, which production rate limits exist to refuse. -e frontend:AGORA_LIMITS_RATES_ENABLED=true
            // turns them on. Body caps stay.
            env.put("AGORA_LIMITS_RATES_ENABLED", "false");
        }
        DatabaseOwners.Login login = databaseLogins.get(tier);
        if (login != null) {
            env.putAll(LocalProfile.database(login));
        }
        if (FIRST_REPLICAS_FIRST && index > 1 && tier.database().isPresent()) {
            // Replicas share their tier's database, and the first replica has migrated and validated it before the
            // others start (phases): they need not run Flyway or Hibernate's schema check again.
            env.put(FLYWAY_ENABLED, "false");
            env.put(DDL_AUTO, "none");
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

    static Path seedStamp(ClusterSpec spec) {
        return spec.dataDirectory().resolve("identity-seeded.txt");
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
