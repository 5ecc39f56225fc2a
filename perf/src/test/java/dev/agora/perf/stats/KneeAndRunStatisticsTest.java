package dev.agora.perf.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class KneeAndRunStatisticsTest {

    @Test
    void kneeIsTheFirstRateWhoseP99TurnsUp() {
        List<Knee.Point> points = List.of(
                new Knee.Point(100, 100, 1.0),
                new Knee.Point(200, 200, 1.2),
                new Knee.Point(400, 399, 2.5),
                new Knee.Point(800, 790, 9.0),
                new Knee.Point(1600, 900, 400));

        assertThat(Knee.find(points, 3)).contains(points.get(3));
    }

    @Test
    void kneeIsAlsoWhereTheSystemFallsBehindTheOfferedRate() {
        List<Knee.Point> points = List.of(new Knee.Point(100, 100, 1.0), new Knee.Point(200, 150, 1.1));

        assertThat(Knee.find(points, 3)).contains(points.get(1));
    }

    @Test
    void noKneeWhileLatencyStaysFlat() {
        assertThat(Knee.find(List.of(new Knee.Point(100, 100, 1), new Knee.Point(200, 200, 1.5)), 3))
                .isEmpty();
        assertThat(Knee.find(List.of(), 3)).isEmpty();
    }

    @Test
    void meanAndSampleStandardDeviationOfTheSeedsTenRuns() {
        // seed 001, VM1: total latency of ten runs of 1000 requests, in ms
        List<Double> runs =
                List.of(28846.0, 28498.0, 27847.0, 27762.0, 28426.0, 28858.0, 27886.0, 28767.0, 28664.0, 27789.0);

        RunStatistics statistics = RunStatistics.of(runs);

        assertThat(statistics.runs()).isEqualTo(10);
        assertThat(statistics.mean()).isCloseTo(28334.3, within(0.01));
        assertThat(statistics.standardDeviation()).isCloseTo(463.15, within(0.01));
        assertThat(statistics.min()).isEqualTo(27762.0);
        assertThat(statistics.max()).isEqualTo(28858.0);
        // the seed reports 39.29 req/s, but its own runs give 1000 / 28.334 s = 35.29 req/s
        assertThat(1000 / (statistics.mean() / 1000)).isCloseTo(35.29, within(0.01));
    }

    @Test
    void oneRunHasNoDeviation() {
        assertThat(RunStatistics.of(List.of(5.0)).standardDeviation()).isZero();
        assertThat(RunStatistics.of(List.of()).runs()).isZero();
    }
}
