package dev.agora.perf.compare;

import dev.agora.perf.report.Commits;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The options every old-against-new command shares (picocli mixin): the two trees, the port offset of each one's
 * cluster, where the report goes and how long a start may take.
 */
final class TwoTrees {

    @Option(names = "--baseline", required = true, description = "The old tree: a checkout whose jars are built.")
    Path baseline;

    @Option(names = "--tree", defaultValue = ".", description = "The new tree (default: the working directory).")
    Path candidate;

    @Option(
            names = "--port-offset",
            defaultValue = "0",
            description = "Port offset of the new cluster (default: ${DEFAULT-VALUE}).")
    int portOffset;

    @Option(
            names = "--baseline-port-offset",
            defaultValue = "1000",
            description = "Port offset of the old cluster (default: ${DEFAULT-VALUE}).")
    int baselinePortOffset;

    @Option(
            names = "--output",
            defaultValue = "perf/reports",
            description = "Where the report goes (default: ${DEFAULT-VALUE}).")
    Path output;

    @Option(
            names = "--ready-timeout",
            defaultValue = "10m",
            converter = CompareCommand.DurationConverter.class,
            description = "How long a cluster may take to start (default: ${DEFAULT-VALUE}).")
    Duration readyTimeout;

    /** Refuses clusters that would share ports. */
    void check() {
        if (portOffset == baselinePortOffset) throw new IllegalArgumentException("the two port offsets must differ");
    }

    Path tree(Side side) {
        return (side == Side.BASELINE ? baseline : candidate).toAbsolutePath().normalize();
    }

    /** Both trees, by side. */
    Map<Side, Path> trees() {
        Map<Side, Path> trees = new EnumMap<>(Side.class);
        for (Side side : Side.values()) trees.put(side, tree(side));
        return trees;
    }

    int portOffset(Side side) {
        return side == Side.BASELINE ? baselinePortOffset : portOffset;
    }

    /**
     * Each tree's commit, read before any cluster starts (the launchers read the jars then: a commit during the run
     * changes nothing).
     */
    Map<Side, String> commits() {
        Map<Side, String> commits = new EnumMap<>(Side.class);
        for (Side side : Side.values()) commits.put(side, Commits.of(tree(side)));
        return commits;
    }

    /** "154faba -> 815ad48": what a two-tree report measured, for its commit field. */
    static String commitPair(Map<Side, String> commits) {
        return commits.get(Side.BASELINE) + " -> " + commits.get(Side.CANDIDATE);
    }

    /** "old: 154faba (/tmp/old)": a side's line in a report's setup. */
    static String describe(Side side, Map<Side, String> commits, Map<Side, ?> trees) {
        return side.label() + ": " + commits.get(side) + " (" + trees.get(side) + ")";
    }
}
