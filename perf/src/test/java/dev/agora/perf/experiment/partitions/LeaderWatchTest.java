package dev.agora.perf.experiment.partitions;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LeaderWatchTest {

    @Test
    void aHandoverBetweenTwoAnswersIsOneLeaderAtATime() {
        assertThat(LeaderWatch.leadersAtOnce(List.of(
                        new LeaderWatch.Observation(0, 1, true, 1),
                        new LeaderWatch.Observation(1, 2, false, 0),
                        new LeaderWatch.Observation(0, 3, true, 1),
                        new LeaderWatch.Observation(1, 4, true, 2),
                        new LeaderWatch.Observation(0, 5, false, 0),
                        new LeaderWatch.Observation(1, 6, true, 2))))
                .isEqualTo(1);
    }

    @Test
    void anInstanceStillLeadingAfterAnotherLedAtANewerEpochIsTwoLeadersAtOnce() {
        assertThat(LeaderWatch.leadersAtOnce(List.of(
                        new LeaderWatch.Observation(0, 1, true, 1),
                        new LeaderWatch.Observation(1, 2, true, 2),
                        new LeaderWatch.Observation(0, 3, true, 1))))
                .isEqualTo(2);
    }

    @Test
    void nobodyLeadingIsZeroAndTheEpochsLedInAreCounted() {
        List<LeaderWatch.Observation> none = List.of(new LeaderWatch.Observation(0, 1, false, 0));
        assertThat(LeaderWatch.leadersAtOnce(none)).isZero();
        assertThat(LeaderWatch.epochsSeen(List.of(
                        new LeaderWatch.Observation(0, 1, true, 3),
                        new LeaderWatch.Observation(1, 2, true, 4),
                        new LeaderWatch.Observation(1, 3, true, 4))))
                .isEqualTo(2);
    }
}
