package dev.agora.perf.experiment;

import dev.agora.launcher.cluster.Cluster;
import dev.agora.launcher.cluster.ClusterSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Hands experiments a running cluster of the shape they ask for. Consecutive phases with the same shape
 * share one cluster; a new shape stops the old cluster first (two cores cannot carry two under load) and starts
 * the new one on its own port offset with a fresh database, so no experiment sees another's ports or data. The
 * one exception is a {@link ClusterPair}: two clusters loaded in turn, never at once.
 * The data root keeps the extracted service jars (and, when asked for, JDK 25 AOT caches trained once per
 * build) across clusters and runs, so only the first cluster pays for them. With a reused target every
 * request gets that one cluster.
 */
final class ClusterPool implements AutoCloseable {

    /** Offsets keep every port clear of the well-known 8080-8381 and 12345 of a developer's own cluster. */
    static final int FIRST_PORT_OFFSET = 2000;

    static final int PORT_OFFSET_STEP = 300;

    /** Below the data root: the second cluster of a pair keeps its database, logs and extracted jars apart. */
    static final String SECOND_CLUSTER_DIRECTORY = "second-cluster";

    private final boolean throughputJvm;
    private final Path dataRoot;
    private final boolean aot;
    /** Set when a start with AOT caches failed: later clusters of the run start without them. */
    private boolean aotFailed;

    private final Target reused;
    private final Consumer<String> log;
    /** Warms a new cluster up and says how, for the reports. */
    private final Function<Target, String> warmUp;

    private final List<String> warmUpNotes = new ArrayList<>();
    private LaunchedTarget current;
    /** Up beside {@link #current} only while an experiment holds a {@link ClusterPair}. */
    private LaunchedTarget second;

    /** Whether a cluster handed out since the last {@link #takeAotUsed()} ran from AOT caches, for its report. */
    private boolean aotHandedOut;

    private int started;

    ClusterPool(
            boolean throughputJvm,
            boolean aot,
            Path dataRoot,
            Target reused,
            Consumer<String> log,
            Function<Target, String> warmUp) {
        this.throughputJvm = throughputJvm;
        this.aot = aot;
        this.dataRoot = dataRoot;
        this.reused = reused;
        this.log = log;
        this.warmUp = warmUp;
    }

    boolean reusing() {
        return reused != null;
    }

    Target acquire(ClusterShape shape) {
        if (reused != null) return reused;
        closeSecond();
        if (current == null || !current.shape().equals(shape)) {
            closeCurrent();
            current = launch(shape, dataRoot);
        }
        aotHandedOut |= current.fromAotCaches();
        return current;
    }

    /**
     * Two clusters up at the same time, for an experiment that compares them in alternating rounds, so that both
     * sides of a comparison share every window of the machine's noise. The first is the pool's current cluster;
     * the second has its own ports, its own PostgreSQL and its own data directory. Closing the pair stops both,
     * and so does asking for any other cluster: no other experiment ever runs beside a second cluster.
     */
    ClusterPair acquirePair(ClusterShape first, ClusterShape second) {
        if (reused != null) {
            throw new IllegalStateException(
                    "this experiment compares two clusters side by side; it cannot run on a reused cluster");
        }
        Target one = acquire(first);
        this.second = launch(second, dataRoot.resolve(SECOND_CLUSTER_DIRECTORY));
        aotHandedOut |= this.second.fromAotCaches();
        return new ClusterPair(one, this.second, this::discard);
    }

    private LaunchedTarget launch(ClusterShape shape, Path dataDirectory) {
        Cluster cluster;
        try {
            cluster = start(shape, dataDirectory);
        } catch (RuntimeException first) {
            // A busy machine can push a start (or AOT training) past the launcher's timeout: one more attempt,
            // without the AOT cache, then give up.
            log.accept("cluster start failed (" + first.getMessage() + "); trying once more"
                    + (usesAot(shape) ? " without AOT cache" : ""));
            aotFailed = true;
            cluster = start(shape, dataDirectory);
        }
        LaunchedTarget launched = new LaunchedTarget(shape, cluster);
        log.accept("cluster ready in " + launched.startupTime().toMillis() + " ms");
        String warmUpNote = warmUp.apply(launched);
        if (!warmUpNote.isEmpty()) {
            log.accept(warmUpNote);
            warmUpNotes.add("Cluster " + (started - 1) + ": " + warmUpNote);
        }
        return launched;
    }

    /** Whether a cluster handed out since the last call ran its services from AOT caches. */
    boolean takeAotUsed() {
        boolean used = aotHandedOut;
        aotHandedOut = false;
        return used;
    }

    /** How the clusters started since the last call were warmed up. */
    List<String> takeWarmUpNotes() {
        List<String> notes = List.copyOf(warmUpNotes);
        warmUpNotes.clear();
        return notes;
    }

    private Cluster start(ClusterShape shape, Path dataDirectory) {
        int index = started++;
        ClusterSpec spec = spec(shape, index).withDataDirectory(dataDirectory);
        // A fresh database and fresh logs for every cluster; the extracted jars and AOT caches stay, so only
        // the first cluster of a run (or of a new build) pays for extracting and training.
        deleteQuietly(spec.dataDirectory().resolve("postgres"));
        deleteQuietly(spec.dataDirectory().resolve("logs"));
        log.accept("starting cluster " + index + ": " + shape.describe() + " (port offset " + spec.portOffset() + ")");
        return Cluster.start(spec);
    }

    private boolean usesAot(ClusterShape shape) {
        return (aot || shape.aotCache()) && !aotFailed;
    }

    /** Stops the current cluster (and a second one) so the next request starts afresh (after faults, or a pair). */
    void discard() {
        try {
            closeSecond();
        } finally {
            closeCurrent();
        }
    }

    ClusterSpec spec(ClusterShape shape, int index) {
        ClusterSpec spec = ClusterSpec.defaults()
                .withDataDirectory(dataRoot)
                .withFresh(false)
                .withAotCache(usesAot(shape))
                .withFrontends(shape.frontends())
                .withCatalogs(shape.catalogs())
                .withOrders(shape.orders())
                .withExchange(shape.exchange())
                .withExchangeStandby(shape.exchangeStandby())
                .withPortOffset(FIRST_PORT_OFFSET + PORT_OFFSET_STEP * index)
                .withPostgresPort(0)
                .withJvmOptions(
                        throughputJvm ? ClusterSpec.THROUGHPUT_JVM_OPTIONS : ClusterSpec.FAST_START_JVM_OPTIONS);
        for (Map.Entry<String, Map<String, String>> service :
                shape.environment().entrySet()) {
            for (Map.Entry<String, String> variable : service.getValue().entrySet()) {
                spec = spec.withEnvironment(service.getKey(), variable.getKey(), variable.getValue());
            }
        }
        return spec;
    }

    private void closeCurrent() {
        LaunchedTarget closing = current;
        current = null;
        stop(closing, "cluster");
    }

    private void closeSecond() {
        LaunchedTarget closing = second;
        second = null;
        stop(closing, "the second cluster");
    }

    private void stop(LaunchedTarget cluster, String which) {
        if (cluster == null) return;
        log.accept("stopping " + which + " (" + cluster.shape().describe() + ")");
        cluster.close();
    }

    @Override
    public void close() {
        discard();
    }

    private static void deleteQuietly(Path directory) {
        if (!Files.exists(directory)) return;
        try (Stream<Path> paths = Files.walk(directory)) {
            List<Path> all = paths.sorted(Comparator.reverseOrder()).toList();
            for (Path path : all) Files.deleteIfExists(path);
        } catch (IOException | UncheckedIOException e) {
            // leftover temporary files are not worth failing a finished run for
        }
    }
}
