package dev.agora.common.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class HedgeDelayTest {

    private static final long FLOOR = Duration.ofMillis(5).toNanos();
    private static final long CAP = Duration.ofMillis(50).toNanos();

    @Test
    void isTheConfiguredDelayUntilEnoughAnswersWereSeen() {
        HedgeDelay delay = new HedgeDelay(95, FLOOR, CAP);
        for (int i = 0; i < 10; i++) delay.answered(Duration.ofMillis(8).toNanos());
        assertThat(delay.nanos()).isEqualTo(CAP);
    }

    @Test
    void followsTheChosenPercentileOfRecentAnswers() {
        HedgeDelay delay = new HedgeDelay(95, FLOOR, CAP);
        // 1..100 ms over and over: the p95 is 96 ms (capped), so look at a window of 6..25 ms instead
        for (int round = 0; round < 20; round++) {
            for (int ms = 6; ms <= 25; ms++)
                delay.answered(Duration.ofMillis(ms).toNanos());
        }
        assertThat(delay.nanos()).isEqualTo(Duration.ofMillis(25).toNanos());
    }

    @Test
    void staysBetweenTheFloorAndTheCap() {
        HedgeDelay fast = new HedgeDelay(95, FLOOR, CAP);
        HedgeDelay slow = new HedgeDelay(95, FLOOR, CAP);
        for (int i = 0; i < 512; i++) {
            fast.answered(Duration.ofMillis(1).toNanos());
            slow.answered(Duration.ofMillis(400).toNanos());
        }
        assertThat(fast.nanos()).isEqualTo(FLOOR);
        assertThat(slow.nanos()).isEqualTo(CAP);
    }

    @Test
    void percentileZeroKeepsTheConfiguredDelay() {
        HedgeDelay fixed = new HedgeDelay(0, FLOOR, CAP);
        for (int i = 0; i < 512; i++) fixed.answered(Duration.ofMillis(1).toNanos());
        assertThat(fixed.nanos()).isEqualTo(CAP);
    }

    @Test
    void noHedgingStaysOff() {
        HedgeDelay off = new HedgeDelay(95, FLOOR, 0);
        for (int i = 0; i < 512; i++) off.answered(Duration.ofMillis(1).toNanos());
        assertThat(off.nanos()).isZero();
    }
}
