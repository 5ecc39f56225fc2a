package dev.agora.perf.stats;

import java.util.Locale;

/**
 * One figure of a seed beside ours. The ratio always reads "how many times better Agora is" (above 1:
 * better, below 1: worse), whichever direction is better for the metric.
 */
public record Comparison(String metric, String unit, double seed, double ours, Better better) {

    public enum Better {
        LOWER,
        HIGHER
    }

    public static Comparison lowerIsBetter(String metric, String unit, double seed, double ours) {
        return new Comparison(metric, unit, seed, ours, Better.LOWER);
    }

    public static Comparison higherIsBetter(String metric, String unit, double seed, double ours) {
        return new Comparison(metric, unit, seed, ours, Better.HIGHER);
    }

    /** Seed / ours for latencies, ours / seed for throughputs; NaN when a side is zero or missing. */
    public double ratio() {
        if (!(seed > 0) || !(ours > 0)) return Double.NaN;
        return better == Better.LOWER ? seed / ours : ours / seed;
    }

    /** "15.6x faster", "2.0x slower", "3.1x higher", "1.2x lower", or "n/a". */
    public String verdict() {
        double ratio = ratio();
        if (Double.isNaN(ratio)) return "n/a";
        boolean better = ratio >= 1;
        double factor = better ? ratio : 1 / ratio;
        String word = this.better == Better.LOWER ? (better ? "faster" : "slower") : (better ? "higher" : "lower");
        return String.format(Locale.ROOT, "%sx %s", Numbers.format(factor), word);
    }

    /** "lookup p50 0.9 ms vs seed 14 ms: 15.6x faster". */
    public String headline() {
        return metric + " " + Numbers.format(ours) + " " + unit + " vs seed " + Numbers.format(seed) + " " + unit + ": "
                + verdict();
    }
}
