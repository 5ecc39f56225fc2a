package dev.agora.perf.experiment;

import dev.agora.perf.cluster.Cluster;
import dev.agora.perf.cluster.ClusterSpec;
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
 * share one cluster; a new shape stops the old cluster first (two cores cannot carry two) and starts the
 * new one on its own port offset with a fresh database, so no experiment sees another's ports or data.
 * The data root keeps the extracted service jars (and, when asked for, JDK 25 AOT caches trained once per
 * build) across clusters and runs, so only the first cluster pays for them. With a reused target every
 * request gets that one cluster.
 */
final class ClusterPool implements AutoCloseable {

    /** Offsets keep every port clear of the well-known 8080-8381 and 12345 of a developer's own cluster. */
    static final int FIRST_PORT_OFFSET = 2000;

    static final int PORT_OFFSET_STEP = 300;

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
        if (current != null && current.shape().equals(shape)) return current;
        closeCurrent();
        Cluster cluster;
        try {
            cluster = start(shape);
        } catch (RuntimeException first) {
            // A busy machine can push a start (or AOT training) past the launcher's timeout: one more attempt,
            // without the AOT cache, then give up.
            log.accept("cluster start failed (" + first.getMessage() + "); trying once more"
                    + (usesAot(shape) ? " without AOT cache" : ""));
            aotFailed = true;
            cluster = start(shape);
        }
        current = new LaunchedTarget(shape, cluster);
        log.accept("cluster ready in " + current.startupTime().toMillis() + " ms");
        String warmUpNote = warmUp.apply(current);
        if (!warmUpNote.isEmpty()) {
            log.accept(warmUpNote);
            warmUpNotes.add("Cluster " + (started - 1) + ": " + warmUpNote);
        }
        return current;
    }

    /** How the clusters started since the last call were warmed up. */
    List<String> takeWarmUpNotes() {
        List<String> notes = List.copyOf(warmUpNotes);
        warmUpNotes.clear();
        return notes;
    }

    private Cluster start(ClusterShape shape) {
        int index = started++;
        ClusterSpec spec = spec(shape, index);
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

    /** Stops the current cluster so the next request starts a fresh one (after faults were injected). */
    void discard() {
        closeCurrent();
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
        if (current == null) return;
        log.accept("stopping cluster (" + current.shape().describe() + ")");
        try {
            current.close();
        } finally {
            current = null;
        }
    }

    @Override
    public void close() {
        closeCurrent();
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
