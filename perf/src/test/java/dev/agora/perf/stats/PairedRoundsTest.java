package dev.agora.perf.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PairedRoundsTest {

    @Test
    void theFigureIsTheMedianOfTheRoundByRoundDifferencesSoASlowWindowSharedByAPairCancels() {
        // rounds 3 and 4 ran in a slow window: both sides 10 ms slower, the difference within each pair unchanged
        PairedRounds rounds = new PairedRounds(List.of(7.0, 8.0, 17.5, 18.0, 9.0), List.of(5.0, 5.0, 15.0, 15.5, 4.0));

        assertThat(rounds.differences()).containsExactly(2.0, 3.0, 2.5, 2.5, 5.0);
        assertThat(rounds.medianDifference()).isEqualTo(2.5);
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheTwoMiddleValues() {
        assertThat(PairedRounds.median(List.of(4.0, -1.0, 3.0, 1.0))).isEqualTo(2.0);
        assertThat(PairedRounds.median(List.of())).isNaN();
    }

    @Test
    void bothSidesNeedTheSameNumberOfRounds() {
        assertThatThrownBy(() -> new PairedRounds(List.of(1.0, 2.0), List.of(1.0)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
