package dev.agora.common.clock;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ClockOffsetTest {

    private static final Instant T0 = Instant.parse("2026-11-27T10:00:00Z");

    @Test
    void theOffsetIsTheDatabasesTimeMinusTheMidpointOfTheRoundTrip() {
        // The query left at T0 and came back 40 ms later; the database read its clock 900 ms before our midpoint.
        ClockOffset offset = ClockOffset.of(T0, T0.plusMillis(20).minusMillis(900), T0.plusMillis(40));

        assertThat(offset.offset()).isEqualTo(Duration.ofMillis(-900));
        assertThat(offset.roundTrip()).isEqualTo(Duration.ofMillis(40));
        assertThat(offset.offsetSeconds()).isEqualTo(-0.9);
        assertThat(offset.describe()).isEqualTo("900 ms ahead of the database");
        assertThat(offset.exceeds(Duration.ofMillis(500))).isTrue();
        assertThat(offset.exceeds(Duration.ofMillis(900))).isFalse();
    }

    @Test
    void aClockBehindTheDatabaseHasAPositiveOffset() {
        ClockOffset offset = ClockOffset.of(T0, T0.plusMillis(5 + 700), T0.plusMillis(10));

        assertThat(offset.offset()).isEqualTo(Duration.ofMillis(700));
        assertThat(offset.describe()).isEqualTo("700 ms behind the database");
    }

    @Test
    void anOffsetWithinHalfTheRoundTripOfTheMaximumIsNotHeldAgainstTheClock() {
        // 600 ms measured over a 400 ms round trip: the true offset may be as small as 400 ms.
        ClockOffset uncertain = ClockOffset.of(T0, T0.plusMillis(200 + 600), T0.plusMillis(400));
        assertThat(uncertain.offset()).isEqualTo(Duration.ofMillis(600));
        assertThat(uncertain.exceeds(Duration.ofMillis(500))).isFalse();

        ClockOffset certain = ClockOffset.of(T0, T0.plusMillis(5 + 600), T0.plusMillis(10));
        assertThat(certain.exceeds(Duration.ofMillis(500))).isTrue();
    }

    @Test
    void aMeasurementDuringWhichTheClockWasSetBackIsNeverBeyondDoubt() {
        // The clock went back 1,500 ms while the query was out: the local readings are 1,490 ms apart the wrong way,
        // and their midpoint is half a step off. Nothing can be concluded from such a measurement.
        ClockOffset stepped = ClockOffset.of(T0, T0.plusMillis(5), T0.minusMillis(1490));
        assertThat(stepped.roundTrip()).isNegative();
        assertThat(stepped.exceeds(Duration.ofMillis(500))).isFalse();
    }
}
