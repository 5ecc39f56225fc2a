package dev.agora.perf.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class RoundScheduleTest {

    @Test
    void eachRoundRunsEveryKindOnBothClustersWithTheFirstClusterAlternatingByRound() {
        List<RoundSchedule.Batch> batches = RoundSchedule.batches(3);

        assertThat(batches)
                .containsExactly(
                        new RoundSchedule.Batch(0, Kind.SEARCH, Side.BASELINE),
                        new RoundSchedule.Batch(0, Kind.SEARCH, Side.CANDIDATE),
                        new RoundSchedule.Batch(0, Kind.LOOKUP, Side.BASELINE),
                        new RoundSchedule.Batch(0, Kind.LOOKUP, Side.CANDIDATE),
                        new RoundSchedule.Batch(0, Kind.BUY, Side.BASELINE),
                        new RoundSchedule.Batch(0, Kind.BUY, Side.CANDIDATE),
                        new RoundSchedule.Batch(1, Kind.SEARCH, Side.CANDIDATE),
                        new RoundSchedule.Batch(1, Kind.SEARCH, Side.BASELINE),
                        new RoundSchedule.Batch(1, Kind.LOOKUP, Side.CANDIDATE),
                        new RoundSchedule.Batch(1, Kind.LOOKUP, Side.BASELINE),
                        new RoundSchedule.Batch(1, Kind.BUY, Side.CANDIDATE),
                        new RoundSchedule.Batch(1, Kind.BUY, Side.BASELINE),
                        new RoundSchedule.Batch(2, Kind.SEARCH, Side.BASELINE),
                        new RoundSchedule.Batch(2, Kind.SEARCH, Side.CANDIDATE),
                        new RoundSchedule.Batch(2, Kind.LOOKUP, Side.BASELINE),
                        new RoundSchedule.Batch(2, Kind.LOOKUP, Side.CANDIDATE),
                        new RoundSchedule.Batch(2, Kind.BUY, Side.BASELINE),
                        new RoundSchedule.Batch(2, Kind.BUY, Side.CANDIDATE));
    }

    @Test
    void overAnEvenNumberOfRoundsEachClusterGoesFirstEquallyOften() {
        List<RoundSchedule.Batch> batches = RoundSchedule.batches(8);

        assertThat(batches).hasSize(8 * 3 * 2);
        long baselineFirst = batches.stream()
                .filter(batch -> batch.kind() == Kind.SEARCH)
                .filter(batch -> batches.indexOf(batch) % 2 == 0 && batch.side() == Side.BASELINE)
                .count();
        assertThat(baselineFirst).isEqualTo(4);
    }

    @Test
    void refusesNoRounds() {
        assertThatThrownBy(() -> RoundSchedule.batches(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
