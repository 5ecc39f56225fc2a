package dev.agora.perf.stats;

import java.time.Duration;

/** What a report prints about one set of latencies: all times in milliseconds. */
public record LatencySummary(
        long count,
        double meanMs,
        double p50Ms,
        double p90Ms,
        double p99Ms,
        double p999Ms,
        double maxMs,
        double throughputPerSecond) {

    public static LatencySummary of(LatencyHistogram latencies, Duration wallTime) {
        double seconds = wallTime.toNanos() / 1e9;
        return new LatencySummary(
                latencies.count(),
                latencies.meanMillis(),
                latencies.percentileMillis(50),
                latencies.percentileMillis(90),
                latencies.percentileMillis(99),
                latencies.percentileMillis(99.9),
                latencies.maxMillis(),
                seconds <= 0 ? 0 : latencies.count() / seconds);
    }
}
