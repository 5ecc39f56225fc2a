package dev.agora.perf.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ComparisonTest {

    @Test
    void lowerLatencyIsFasterAndTheRatioIsSeedOverOurs() {
        Comparison lookup = Comparison.lowerIsBetter("lookup p50", "ms", 14, 0.9);

        assertThat(lookup.ratio()).isCloseTo(15.556, within(0.001));
        assertThat(lookup.verdict()).isEqualTo("15.6x faster");
        assertThat(lookup.headline()).isEqualTo("lookup p50 0.9 ms vs seed 14 ms: 15.6x faster");
    }

    @Test
    void higherLatencyIsSlower() {
        Comparison buy = Comparison.lowerIsBetter("buy", "ms", 10, 20);

        assertThat(buy.ratio()).isEqualTo(0.5);
        assertThat(buy.verdict()).isEqualTo("2x slower");
    }

    @Test
    void throughputRatioIsOursOverSeed() {
        Comparison throughput = Comparison.higherIsBetter("throughput", "req/s", 39.29, 3929);

        assertThat(throughput.ratio()).isCloseTo(100, within(1e-9));
        assertThat(throughput.verdict()).isEqualTo("100x higher");
        assertThat(Comparison.higherIsBetter("t", "req/s", 40, 10).verdict()).isEqualTo("4x lower");
    }

    @Test
    void missingOrZeroSidesGiveNoRatio() {
        assertThat(Comparison.lowerIsBetter("x", "ms", 5, 0).ratio()).isNaN();
        assertThat(Comparison.lowerIsBetter("x", "ms", 5, Double.NaN).verdict()).isEqualTo("n/a");
        assertThat(Comparison.higherIsBetter("x", "ms", 0, 3).verdict()).isEqualTo("n/a");
    }

    @Test
    void numbersAreThreeSignificantDigitsWithoutExponent() {
        assertThat(Numbers.format(0.000123456)).isEqualTo("0.000123");
        assertThat(Numbers.format(15.5555)).isEqualTo("15.6");
        assertThat(Numbers.format(123456.7)).isEqualTo("123457");
        assertThat(Numbers.format(2.0)).isEqualTo("2");
        assertThat(Numbers.format(0)).isEqualTo("0");
        assertThat(Numbers.format(Double.NaN)).isEqualTo("n/a");
    }
}
