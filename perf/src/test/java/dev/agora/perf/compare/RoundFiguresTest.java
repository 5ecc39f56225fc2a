package dev.agora.perf.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.agora.perf.stats.LatencySummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RoundFiguresTest {

    @Test
    void mediansOverRoundsAndTheirRatioNewOverOld() {
        RoundFigures figures = new RoundFigures(List.of(1.0, 3.0, 2.0), List.of(2.5, 2.0, 9.0));

        assertThat(figures.baselineMedian()).isEqualTo(2.0);
        assertThat(figures.candidateMedian()).isEqualTo(2.5);
        assertThat(figures.ratio()).isEqualTo(1.25);
    }

    @Test
    void anEvenNumberOfRoundsTakesTheMeanOfTheMiddleTwo() {
        RoundFigures figures = new RoundFigures(List.of(4.0, 1.0, 3.0, 2.0), List.of(1.0, 1.0, 1.0, 1.0));

        assertThat(figures.baselineMedian()).isEqualTo(2.5);
        assertThat(figures.ratio()).isEqualTo(0.4);
    }

    @Test
    void thePairedRatioIsTheMedianOfEachRoundsOwnRatioSoOneNoisyWindowMovesItLittle() {
        // Round 2 ran in a slow window: both sides 10x. Each round's own ratio is 1.1, 1.1, 1.2.
        RoundFigures figures = new RoundFigures(List.of(1.0, 10.0, 1.0), List.of(1.1, 11.0, 1.2));

        assertThat(figures.pairedRatio()).isCloseTo(1.1, within(1e-9));
    }

    @Test
    void aMissingOrZeroBaselineGivesNoRatioRatherThanInfinity() {
        assertThat(RoundFigures.ratio(1, 0)).isNaN();
        assertThat(RoundFigures.ratio(Double.NaN, 1)).isNaN();
        assertThat(new RoundFigures(List.of(), List.of()).ratio()).isNaN();
        assertThat(new RoundFigures(List.of(0.0, 2.0), List.of(1.0, 3.0)).pairedRatio())
                .isEqualTo(1.5);
    }

    @Test
    void takesAKindsFigureFromTheBatchesInRoundOrderWhateverTheOrderTheyRan() {
        List<BatchResult> results = new ArrayList<>();
        for (RoundSchedule.Batch batch : RoundSchedule.batches(2)) {
            double p50 = (batch.side() == Side.BASELINE ? 1 : 2)
                    * (batch.round() + 1)
                    * (batch.kind().ordinal() + 1);
            results.add(new BatchResult(
                    batch,
                    new LatencySummary(100, p50, p50, p50, p50, p50, p50, 1000 / p50),
                    0,
                    "",
                    Map.of(),
                    Double.NaN));
        }

        RoundFigures lookups =
                RoundFigures.of(results, Kind.LOOKUP, result -> result.latency().p50Ms());

        assertThat(lookups.baseline()).containsExactly(2.0, 4.0);
        assertThat(lookups.candidate()).containsExactly(4.0, 8.0);
        assertThat(lookups.ratio()).isEqualTo(2.0);
    }

    @Test
    void cpuPerRequestIsTheBatchesCpuTimeOverItsRequests() {
        BatchResult result = new BatchResult(
                new RoundSchedule.Batch(0, Kind.BUY, Side.CANDIDATE),
                new LatencySummary(200, 1, 1, 1, 1, 1, 1, 1000),
                0,
                "",
                Map.of(CpuTier.ORDER, 300.0),
                Double.NaN);

        assertThat(result.cpuMillisPerRequest(CpuTier.ORDER)).isEqualTo(1.5);
        assertThat(result.cpuMillisPerRequest(CpuTier.POSTGRES)).isNaN();
    }
}
