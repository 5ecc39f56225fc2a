package dev.agora.perf.experiment;

import dev.agora.perf.load.HttpDriver;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/** What an experiment gets to run with: the mode, the clusters, and where reports go. */
public final class ExperimentContext {

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    private final boolean quick;
    private final Path output;
    private final ClusterPool clusters;
    private final PrintStream console;

    ExperimentContext(boolean quick, Path output, ClusterPool clusters, PrintStream console) {
        this.quick = quick;
        this.output = output;
        this.clusters = clusters;
        this.console = console;
    }

    public boolean quick() {
        return quick;
    }

    public Path output() {
        return output;
    }

    /** The seed's count, or the reduced one with {@code --quick}. */
    public int count(int full, int reduced) {
        return quick ? reduced : full;
    }

    public <T> List<T> choose(List<T> full, List<T> reduced) {
        return quick ? reduced : full;
    }

    /**
     * The integers a system property lists ({@code -Dregister-search-download.clients=1,8}), or {@code otherwise}
     * when it is not set: lets a run narrow an experiment to some of its points at full counts.
     */
    public static List<Integer> chosen(String property, List<Integer> otherwise) {
        String configured = System.getProperty(property);
        if (configured == null || configured.isBlank()) return otherwise;
        return java.util.Arrays.stream(configured.split(","))
                .map(String::strip)
                .map(Integer::valueOf)
                .toList();
    }

    /** The integer a system property gives ({@code -Dregister-search-download.files=10000}), or {@code otherwise}. */
    public static int chosen(String property, int otherwise) {
        String configured = System.getProperty(property);
        return configured == null || configured.isBlank() ? otherwise : Integer.parseInt(configured.strip());
    }

    public Target cluster(ClusterShape shape) {
        return clusters.acquire(shape);
    }

    /**
     * Two clusters up at the same time, for comparing them in alternating rounds that share the machine's windows
     * of noise; close the pair to stop both. Not possible on a reused cluster.
     */
    public ClusterPair clusterPair(ClusterShape first, ClusterShape second) {
        return clusters.acquirePair(first, second);
    }

    /** Drops the current cluster, e.g. after killing its replicas, so the next experiment starts clean. */
    public void discardCluster() {
        clusters.discard();
    }

    /** True when running against a cluster started elsewhere (shape fixed, maybe no fault injection). */
    public boolean reusingCluster() {
        return clusters.reusing();
    }

    /** A pooled HTTP client for up to {@code connections} concurrent requests. */
    public HttpDriver http(int connections) {
        return new HttpDriver(connections);
    }

    public void log(String message) {
        console.println("[" + LocalTime.now(ZoneOffset.UTC).format(CLOCK) + "] " + message);
    }
}
