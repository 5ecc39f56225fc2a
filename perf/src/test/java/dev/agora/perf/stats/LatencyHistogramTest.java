package dev.agora.perf.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class LatencyHistogramTest {

    @Test
    void percentilesOfOneToAThousandMilliseconds() {
        LatencyHistogram histogram = new LatencyHistogram();
        for (int ms = 1; ms <= 1000; ms++) histogram.record(Duration.ofMillis(ms));

        assertThat(histogram.count()).isEqualTo(1000);
        assertThat(histogram.meanMillis()).isCloseTo(500.5, within(0.5));
        assertThat(histogram.percentileMillis(50)).isCloseTo(500, within(1.0));
        assertThat(histogram.percentileMillis(99)).isCloseTo(990, within(1.0));
        assertThat(histogram.percentileMillis(99.9)).isCloseTo(999, within(1.0));
        assertThat(histogram.maxMillis()).isCloseTo(1000, within(1.0));
        assertThat(histogram.minMillis()).isCloseTo(1, within(0.01));
    }

    @Test
    void summaryComputesThroughputOverWallTime() {
        LatencyHistogram histogram = new LatencyHistogram();
        for (int i = 0; i < 500; i++) histogram.recordNanos(2_000_000);

        LatencySummary summary = histogram.summarize(Duration.ofSeconds(2));

        assertThat(summary.count()).isEqualTo(500);
        assertThat(summary.throughputPerSecond()).isEqualTo(250.0);
        assertThat(summary.p50Ms()).isCloseTo(2.0, within(0.01));
        assertThat(summary.p999Ms()).isCloseTo(2.0, within(0.01));
    }

    @Test
    void mergingKeepsEveryValue() {
        LatencyHistogram fast = new LatencyHistogram();
        LatencyHistogram slow = new LatencyHistogram();
        for (int i = 0; i < 90; i++) fast.recordNanos(1_000_000);
        for (int i = 0; i < 10; i++) slow.recordNanos(100_000_000);

        LatencyHistogram all = new LatencyHistogram().add(fast).add(slow);

        assertThat(all.count()).isEqualTo(100);
        assertThat(all.percentileMillis(90)).isCloseTo(1.0, within(0.01));
        assertThat(all.percentileMillis(91)).isCloseTo(100.0, within(0.1));
    }

    @Test
    void emptyAndOutOfRangeValuesDoNotThrow() {
        LatencyHistogram histogram = new LatencyHistogram();
        assertThat(histogram.percentileMillis(99)).isZero();
        assertThat(histogram.summarize(Duration.ZERO).throughputPerSecond()).isZero();

        histogram.recordNanos(-5);
        histogram.recordNanos(Long.MAX_VALUE);

        assertThat(histogram.count()).isEqualTo(2);
        assertThat(histogram.maxMillis()).isCloseTo(3_600_000, within(3_600.0));
    }
}
