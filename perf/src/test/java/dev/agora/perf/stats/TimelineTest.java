package dev.agora.perf.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TimelineTest {

    private static final long ORIGIN = 5_000_000_000L;
    private static final long MS = 1_000_000L;

    @Test
    void countsEachAttemptInTheBinItEndedInAsARatePerSecond() {
        Timeline timeline =
                new Timeline(ORIGIN, Duration.ofMillis(200), Duration.ofMillis(300), Duration.ofMillis(100));
        timeline.add(ORIGIN - 150 * MS, true);
        timeline.add(ORIGIN - 101 * MS, true);
        timeline.add(ORIGIN - 100 * MS, false);
        timeline.add(ORIGIN, true);
        timeline.add(ORIGIN + 299 * MS, false);

        assertThat(timeline.binStartSeconds()).containsExactly(-0.2, -0.1, 0.0, 0.1, 0.2);
        assertThat(timeline.answeredPerSecond()).containsExactly(20.0, 0.0, 10.0, 0.0, 0.0);
        assertThat(timeline.failedPerSecond()).containsExactly(0.0, 10.0, 0.0, 0.0, 10.0);
    }

    @Test
    void attemptsEndingOutsideTheCoveredSpanAreLeftOut() {
        Timeline timeline = new Timeline(ORIGIN, Duration.ZERO, Duration.ofSeconds(2), Duration.ofSeconds(1));
        timeline.add(ORIGIN - 1, true);
        timeline.add(ORIGIN + 2_000 * MS, true);
        timeline.add(ORIGIN + 1_999 * MS, true);

        assertThat(timeline.answeredPerSecond()).containsExactly(0.0, 1.0);
    }

    @Test
    void aBinOfNoLengthIsRefused() {
        assertThatThrownBy(() -> new Timeline(ORIGIN, Duration.ZERO, Duration.ofSeconds(1), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
