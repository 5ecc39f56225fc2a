package dev.agora.perf.stats;

import java.util.List;

/** Mean and sample standard deviation over repeated runs (the seed repeats its runs ten times). */
public record RunStatistics(int runs, double mean, double standardDeviation, double min, double max) {

    public static RunStatistics of(List<Double> values) {
        if (values.isEmpty()) return new RunStatistics(0, 0, 0, 0, 0);
        double sum = 0;
        double min = Double.MAX_VALUE;
        double max = -Double.MAX_VALUE;
        for (double value : values) {
            sum += value;
            min = Math.min(min, value);
            max = Math.max(max, value);
        }
        double mean = sum / values.size();
        double squares = 0;
        for (double value : values) squares += (value - mean) * (value - mean);
        double deviation = values.size() < 2 ? 0 : Math.sqrt(squares / (values.size() - 1));
        return new RunStatistics(values.size(), mean, deviation, min, max);
    }
}
