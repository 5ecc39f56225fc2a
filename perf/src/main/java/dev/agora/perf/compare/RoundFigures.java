package dev.agora.perf.compare;

import dev.agora.perf.stats.PairedRounds;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * One figure (p50, p99, throughput, CPU per request) of one kind of request, round by round on both clusters. Its
 * summary is the median over rounds for each side, and their ratio new/old: above 1 the new jars take more (time,
 * CPU) or serve more (throughput). The paired ratio is the median of each round's own new/old: both halves of a
 * round ran back to back, so a slow window of the machine slows both and mostly cancels.
 */
public record RoundFigures(List<Double> baseline, List<Double> candidate) {

    public RoundFigures {
        if (baseline.size() != candidate.size()) {
            throw new IllegalArgumentException(baseline.size() + " baseline rounds, " + candidate.size() + " new");
        }
        baseline = List.copyOf(baseline);
        candidate = List.copyOf(candidate);
    }

    /** The figure of a kind from a run's batches, in round order. */
    public static RoundFigures of(List<BatchResult> results, Kind kind, ToDoubleFunction<BatchResult> figure) {
        List<Double> baseline = new ArrayList<>();
        List<Double> candidate = new ArrayList<>();
        results.stream()
                .filter(result -> result.batch().kind() == kind)
                .sorted(java.util.Comparator.comparingInt(
                        result -> result.batch().round()))
                .forEach(result -> (result.batch().side() == Side.BASELINE ? baseline : candidate)
                        .add(figure.applyAsDouble(result)));
        return new RoundFigures(baseline, candidate);
    }

    public double baselineMedian() {
        return PairedRounds.median(finite(baseline));
    }

    public double candidateMedian() {
        return PairedRounds.median(finite(candidate));
    }

    /** Median of new over median of old. */
    public double ratio() {
        return ratio(candidateMedian(), baselineMedian());
    }

    /** Median over rounds of each round's new/old. */
    public double pairedRatio() {
        List<Double> ratios = new ArrayList<>();
        for (int round = 0; round < baseline.size(); round++) {
            double ratio = ratio(candidate.get(round), baseline.get(round));
            if (Double.isFinite(ratio)) ratios.add(ratio);
        }
        return PairedRounds.median(ratios);
    }

    /** New / old; NaN when either is missing or the old one is not positive. */
    public static double ratio(double candidate, double baseline) {
        if (!Double.isFinite(candidate) || !Double.isFinite(baseline) || !(baseline > 0)) return Double.NaN;
        return candidate / baseline;
    }

    private static List<Double> finite(List<Double> values) {
        return values.stream().filter(Double::isFinite).toList();
    }
}
