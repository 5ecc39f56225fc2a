package dev.agora.launcher.cluster;

import dev.agora.launcher.credentials.Credentials;
import dev.agora.local.cluster.FreePorts;
import dev.agora.local.postgres.EmbeddedPostgresServer;
import dev.agora.local.process.ServiceProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A whole Agora system on this machine: one embedded PostgreSQL holding the databases catalog, orders, exchange and
 * identity (the frontends' users and clients), and every service replica as its own OS process, so that experiments
 * and tests can kill, freeze and restart real processes. State lives in the spec's data directory and survives
 * closing and starting again; so do the demo credentials the launcher writes there ({@link #credentialsFile()}).
 */
public final class Cluster implements InstanceControl, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Cluster.class);
    /** How long a restarted instance may take to be ready (twice for an exchange that must lead again). */
    static final Duration READY_TIMEOUT = Duration.ofMinutes(5);

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);

    private final ClusterSpec spec;
    private final EmbeddedPostgresServer postgres;
    private final Map<String, Member> members;
    private final Set<String> frozen = ConcurrentHashMap.newKeySet();
    private final StartupTimes startupTimes;
    private final Shutdown shutdown;
    private final Thread shutdownHook;
    private volatile boolean closed;
    private volatile Thread backgroundTraining;

    private Cluster(
            ClusterSpec spec,
            EmbeddedPostgresServer postgres,
            Map<String, Member> members,
            StartupTimes startupTimes,
            Shutdown shutdown,
            Thread shutdownHook) {
        this.spec = spec;
        this.postgres = postgres;
        this.members = members;
        this.startupTimes = startupTimes;
        this.shutdown = shutdown;
        this.shutdownHook = shutdownHook;
    }

    /**
     * Starts PostgreSQL, then every instance, and returns once all of them report ready. If anything fails to
     * start, whatever did start is stopped again before the exception leaves.
     */
    public static Cluster start(ClusterSpec spec) {
        return start(spec, StartProgress.NONE, AotTraining.BEFORE_START);
    }

    /**
     * As {@link #start(ClusterSpec)}, telling {@code progress} about each step and instance as it goes.
     *
     * @param training when a missing AOT cache is trained (with {@link ClusterSpec#aotCache()})
     */
    public static Cluster start(ClusterSpec spec, StartProgress progress, AotTraining training) {
        return new ClusterStarter(spec, progress, training).start();
    }

    /**
     * As {@link #start(ClusterSpec)}, with every link between instances and to PostgreSQL through a Toxiproxy proxy
     * of its own ({@link NetworkLinks}), so that links can be cut, slowed and broken one at a time.
     */
    public static Cluster start(ClusterSpec spec, NetworkLinks links) {
        return new ClusterStarter(spec, StartProgress.NONE, AotTraining.BEFORE_START, links).start();
    }

    /** When a tier's missing AOT cache is trained. */
    public enum AotTraining {
        /** Before its instances start, which then run from it (every start alike: perf, tests). */
        BEFORE_START,
        /**
         * Once the cluster is ready, one tier after the other at a low CPU priority, for the next start; this one runs
         * without (the launcher's command: the first start after a build is not held up by training).
         */
        AFTER_READY
    }

    /** Whether background AOT training ({@link AotTraining#AFTER_READY}) is still going on. */
    public boolean isTraining() {
        return backgroundTraining != null && backgroundTraining.isAlive();
    }

    /** Waits at most {@code timeout} for background AOT training to end; whether it has. */
    public boolean awaitTraining(Duration timeout) throws InterruptedException {
        if (backgroundTraining == null) return true;
        return backgroundTraining.join(timeout);
    }

    /** Assembled by {@link ClusterStarter} once every instance is ready. */
    static Cluster assemble(
            ClusterSpec spec,
            EmbeddedPostgresServer postgres,
            List<Member> members,
            StartupTimes startupTimes,
            Shutdown shutdown,
            Thread shutdownHook) {
        Map<String, Member> byName = new LinkedHashMap<>();
        members.forEach(member -> byName.put(member.name(), member));
        return new Cluster(spec, postgres, Collections.unmodifiableMap(byName), startupTimes, shutdown, shutdownHook);
    }

    void trainInBackground(Thread training) {
        backgroundTraining = training;
    }

    public ClusterSpec spec() {
        return spec;
    }

    @Override
    public List<Instance> instances() {
        return members.values().stream().map(Member::snapshot).toList();
    }

    /** Base URLs of a tier's replicas in index order; service is "frontend", "catalog", "order" or "exchange". */
    public List<String> urls(String service) {
        Tier tier = Tier.of(service);
        return members.values().stream()
                .filter(member -> member.tier() == tier)
                .map(member -> member.process().baseUrl())
                .toList();
    }

    /** The XML port of exchange-1 (the active instance at start). */
    public int exchangeTcpPort() {
        return spec.exchangeTcpPort();
    }

    /** The XML ports of every exchange instance, in index order: only the active one listens. */
    public List<Integer> exchangeTcpPorts() {
        return java.util.stream.IntStream.rangeClosed(1, spec.replicas(Tier.EXCHANGE))
                .mapToObj(spec::exchangeTcpPort)
                .toList();
    }

    /**
     * {@code <data-dir>/demo-credentials.properties}: the demo users' OAuth2 clients (admin, trader, customer) and
     * the token endpoint, written at start and kept across restarts on the same data directory.
     */
    public Path credentialsFile() {
        return credentialsFile(spec);
    }

    /** The demo users' clients of {@link #credentialsFile()}. */
    public Credentials credentials() {
        return Credentials.read(credentialsFile());
    }

    static Path credentialsFile(ClusterSpec spec) {
        return spec.dataDirectory().resolve(Credentials.FILE_NAME);
    }

    public int postgresPort() {
        return postgres.port();
    }

    /** JDBC URL of "catalog", "orders", "exchange" or "identity", for checks against the source of truth. */
    public String jdbcUrl(String database) {
        return postgres.jdbcUrl(database);
    }

    public String username() {
        return postgres.username();
    }

    public String password() {
        return postgres.password();
    }

    /** How long the start took, in total and per instance. */
    public StartupTimes startupTimes() {
        return startupTimes;
    }

    /** Whether the named instance's process is running and not frozen. */
    public boolean isRunning(String instanceName) {
        return member(instanceName).process().isAlive() && !frozen.contains(instanceName);
    }

    public boolean isFrozen(String instanceName) {
        return frozen.contains(instanceName);
    }

    @Override
    public void kill(String instanceName) {
        Member member = member(instanceName);
        log.info("kill -9 {} (pid {})", instanceName, member.process().pid());
        member.process().kill();
        frozen.remove(instanceName);
    }

    @Override
    public void freeze(String instanceName) {
        Member member = member(instanceName);
        if (!member.process().isAlive()) throw new IllegalStateException(instanceName + " is not running");
        log.info("SIGSTOP {} (pid {})", instanceName, member.process().pid());
        member.process().freeze();
        frozen.add(instanceName);
    }

    @Override
    public void thaw(String instanceName) {
        Member member = member(instanceName);
        log.info("SIGCONT {} (pid {})", instanceName, member.process().pid());
        member.process().thaw();
        frozen.remove(instanceName);
    }

    @Override
    public Duration restart(String instanceName) {
        Member member = member(instanceName);
        // The only exchange, killed while active, comes back active once it holds the lease again: until then it
        // stands by, and "standing by" is not back (its XML port is still closed).
        boolean mustLeadAgain = member.tier() == Tier.EXCHANGE
                && member.process().isReady()
                && members.values().stream()
                        .noneMatch(other -> other != member
                                && other.tier() == Tier.EXCHANGE
                                && other.process().isAlive());
        member.process().kill();
        frozen.remove(instanceName);
        long started = System.nanoTime();
        Duration startToReady = ClusterStarter.startAndAwait(
                member, READY_TIMEOUT, CpuPriority.RESTART_NICENESS, 0, ClusterStarter.LOW_PRIORITY_AT_MOST, false);
        if (mustLeadAgain) {
            member.process().awaitReady(READY_TIMEOUT);
            startToReady = Duration.ofNanos(System.nanoTime() - started);
        }
        log.info(
                "{} restarted, ready after {} ms (pid {})",
                instanceName,
                startToReady.toMillis(),
                member.process().pid());
        return startToReady;
    }

    /** SIGTERM to every instance (frozen ones are thawed first), SIGKILL to stragglers, then stops PostgreSQL. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        Thread training = backgroundTraining;
        if (training != null) training.interrupt(); // stops its training JVM
        removeShutdownHook();
        shutdown.run();
    }

    static void stopAll(List<ServiceProcess> processes) {
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> stops = new ArrayList<>();
            for (ServiceProcess process : processes) {
                stops.add(executor.submit(() -> process.stop(STOP_TIMEOUT)));
            }
            for (Future<?> stop : stops) {
                try {
                    stop.get();
                } catch (ExecutionException e) {
                    log.warn("Stopping an instance failed", e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void removeShutdownHook() {
        if (shutdownHook == null || Thread.currentThread() == shutdownHook) return;
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // The hook runs anyway and finds the cluster closed.
        }
    }

    private Member member(String instanceName) {
        Member member = members.get(instanceName);
        if (member == null) {
            throw new IllegalArgumentException("No instance " + instanceName + "; instances: " + members.keySet());
        }
        return member;
    }

    /** Instances of the cluster grouped by tier, e.g. for printing. */
    Map<Tier, List<Instance>> instancesByTier() {
        return instances().stream()
                .collect(Collectors.groupingBy(
                        instance -> Tier.of(instance.service()), () -> new EnumMap<>(Tier.class), Collectors.toList()));
    }

    /** One instance of the cluster and the process that runs it. */
    record Member(String name, Tier tier, ServiceProcess process) {
        Instance snapshot() {
            return new Instance(
                    name,
                    tier.service(),
                    process.port(),
                    process.isAlive() ? process.pid() : -1,
                    process.baseUrl(),
                    process.logFile());
        }
    }

    /** Fails fast with a clear message instead of letting an instance die on "address in use" later. */
    static void requirePortsFree(List<Integer> ports) {
        List<Integer> busy =
                ports.stream().filter(port -> !FreePorts.isFree(port)).toList();
        if (!busy.isEmpty()) {
            throw new IllegalStateException(
                    "Ports already in use: " + busy + " (another cluster still running? choose another --port-offset)");
        }
    }

    static <T, R> List<R> inParallel(List<T> items, Function<T, R> action) {
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<R>> futures = items.stream()
                    .map(item -> executor.submit(() -> action.apply(item)))
                    .toList();
            List<R> results = new ArrayList<>();
            RuntimeException failure = null;
            for (Future<R> future : futures) {
                try {
                    results.add(future.get());
                } catch (ExecutionException e) {
                    RuntimeException cause = e.getCause() instanceof RuntimeException runtime
                            ? runtime
                            : new IllegalStateException(e.getCause());
                    if (failure == null) failure = cause;
                    else failure.addSuppressed(cause);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("Interrupted", e);
                }
            }
            if (failure != null) throw failure;
            return results;
        }
    }

    static void deleteRecursively(Path directory) {
        if (!Files.exists(directory)) return;
        try (var paths = Files.walk(directory)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not delete " + directory, e);
        }
    }
}
