package dev.agora.perf.stats;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Latencies in nanoseconds with three significant digits, up to one hour. Not thread-safe: give each
 * client thread its own and {@link #add} them at the end, which keeps recording free of contention.
 */
public final class LatencyHistogram {

    private static final long HIGHEST_TRACKABLE_NANOS = TimeUnit.HOURS.toNanos(1);

    private final Histogram histogram = new Histogram(1, HIGHEST_TRACKABLE_NANOS, 3);

    public void recordNanos(long nanos) {
        histogram.recordValue(Math.min(Math.max(nanos, 1), HIGHEST_TRACKABLE_NANOS));
    }

    public void record(Duration latency) {
        recordNanos(latency.toNanos());
    }

    public LatencyHistogram add(LatencyHistogram other) {
        histogram.add(other.histogram);
        return this;
    }

    public long count() {
        return histogram.getTotalCount();
    }

    public double meanMillis() {
        return count() == 0 ? 0 : histogram.getMean() / 1e6;
    }

    /** The value at the given percentile (0..100) in milliseconds. */
    public double percentileMillis(double percentile) {
        return count() == 0 ? 0 : histogram.getValueAtPercentile(percentile) / 1e6;
    }

    public double maxMillis() {
        return count() == 0 ? 0 : histogram.getMaxValue() / 1e6;
    }

    public double minMillis() {
        return count() == 0 ? 0 : histogram.getMinValue() / 1e6;
    }

    public double stdDevMillis() {
        return count() == 0 ? 0 : histogram.getStdDeviation() / 1e6;
    }

    /** Summary of these latencies, with throughput computed over the given wall-clock time. */
    public LatencySummary summarize(Duration wallTime) {
        return LatencySummary.of(this, wallTime);
    }

    /** Exposes the HdrHistogram for callers that iterate its recorded values. */
    Histogram histogram() {
        return histogram;
    }
}
