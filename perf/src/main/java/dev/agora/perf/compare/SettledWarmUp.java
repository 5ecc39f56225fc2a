package dev.agora.perf.compare;

import dev.agora.local.process.ProcessFigures;
import dev.agora.perf.stats.Numbers;
import java.io.PrintStream;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Warms both clusters up in slices, one cluster at a time, for at least a least duration and then on while a
 * cluster's JIT compilers still take a share of its CPU: a JVM compiles a buy's code over many thousands of buys
 * (each service makes some 20,000 compilations), and a batch measured meanwhile counts the compilers' CPU as the
 * requests' and runs code not yet compiled. One tree's code may take much longer to settle than the other's, so a
 * fixed warm-up would measure one warm and the other still compiling.
 */
final class SettledWarmUp {

    /**
     * How a cluster's warm-up ended.
     *
     * @param compilerShare the share of the cluster's CPU its JIT compilers took over the last slice
     * @param settled whether that share was below the bound (else the limit came first)
     */
    record WarmedUp(Duration took, long failures, double compilerShare, boolean settled) {

        /** "warmed up 140 s, its JIT compilers 4.7% of its CPU over its last {@code slice}", and whether it settled. */
        String describe(String slice) {
            return "warmed up " + took.toSeconds() + " s, its JIT compilers " + Numbers.format(compilerShare * 100)
                    + "% of its CPU over its last " + slice
                    + (settled ? "" : " (**not settled**: the limit came first)");
        }
    }

    private SettledWarmUp() {}

    /** Refuses options a warm-up cannot end by: a share outside (0, 1), or a limit below the least duration. */
    static void check(Duration least, double settled, Duration limit) {
        if (!(settled > 0 && settled < 1) || limit.compareTo(least) < 0) {
            throw new IllegalArgumentException("--settled-jit between 0 and 1, --warm-up-limit at least --warm-up");
        }
    }

    /**
     * Whether a cluster needs more warm-up: the least duration not yet had, or its JIT compilers still busy and the
     * limit not yet reached.
     */
    static boolean warmingUp(Duration warmed, double compilerShare, Duration least, double settled, Duration limit) {
        if (warmed.compareTo(least) < 0) return true;
        return compilerShare >= settled && warmed.compareTo(limit) < 0;
    }

    /**
     * Slices of {@code slice} to each cluster in turn (sent by {@code load}, which answers the slice's failed
     * requests) until neither needs more ({@link #warmingUp}); {@code with} names the load for the console.
     */
    static Map<Side, WarmedUp> run(
            String with,
            Map<Side, LaunchedCluster> clusters,
            BiFunction<Side, Duration, Long> load,
            Duration slice,
            Duration least,
            double settled,
            Duration limit,
            PrintStream out) {
        out.printf(
                "Warming each cluster up with %s for at least %d s, until its JIT compilers take under %s%% of its CPU"
                        + " (at most %d s) ...%n",
                with, least.toSeconds(), Numbers.format(settled * 100), limit.toSeconds());
        Map<Side, WarmedUp> warmed = new EnumMap<>(Side.class);
        for (Side side : Side.values()) warmed.put(side, new WarmedUp(Duration.ZERO, 0, 1, false));
        while (true) {
            boolean more = false;
            for (Side side : Side.values()) {
                WarmedUp so = warmed.get(side);
                if (!warmingUp(so.took(), so.compilerShare(), least, settled, limit)) continue;
                more = true;
                LaunchedCluster cluster = clusters.get(side);
                var cpuBefore = cluster.cpuTicks();
                long compilersBefore = cluster.compilerTicks();
                long started = System.nanoTime();
                long failures = load.apply(side, slice);
                Duration took = Duration.ofNanos(System.nanoTime() - started);
                double compilerMillis =
                        (cluster.compilerTicks() - compilersBefore) * ProcessFigures.NANOS_PER_TICK / 1e6;
                double all = cluster.cpuMillisSince(cpuBefore).values().stream()
                        .mapToDouble(Double::doubleValue)
                        .sum();
                double share = all > 0 ? compilerMillis / all : 0;
                warmed.put(side, new WarmedUp(so.took().plus(took), so.failures() + failures, share, share < settled));
                out.printf(
                        Locale.ROOT,
                        "  %s: %d s, JIT compilers %.1f%% of its CPU%n",
                        side.label(),
                        warmed.get(side).took().toSeconds(),
                        share * 100);
            }
            if (!more) return warmed;
        }
    }
}
