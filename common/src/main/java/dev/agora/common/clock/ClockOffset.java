package dev.agora.common.clock;

import java.time.Duration;
import java.time.Instant;

/**
 * One NTP-style measurement of this clock against the database's: the database's time minus the midpoint of the query's
 * round trip on the local clock (positive: this clock is behind), with an error of at most half the round trip.
 */
public record ClockOffset(Duration offset, Duration roundTrip, Instant measuredAt) {

    static ClockOffset of(Instant before, Instant database, Instant after) {
        Duration roundTrip = Duration.between(before, after);
        Instant midpoint = before.plus(roundTrip.dividedBy(2));
        return new ClockOffset(Duration.between(midpoint, database), roundTrip, midpoint);
    }

    /**
     * Whether the offset exceeds {@code max} beyond doubt: the true offset lies within half the round trip of the
     * measured one, so a slow query (a loaded machine) does not make a right clock look wrong. A round trip that
     * went backwards (the clock was set back while the query was out) counts by its size: such a measurement spans
     * the step and proves nothing, and subtracting its negative half would have made it look certain.
     */
    public boolean exceeds(Duration max) {
        return offset.abs().minus(roundTrip.abs().dividedBy(2)).compareTo(max) > 0;
    }

    /** "812 ms ahead of the database" or "812 ms behind the database", as this instance's clock is. */
    public String describe() {
        return offset.abs().toMillis() + " ms " + (offset.isNegative() ? "ahead of" : "behind") + " the database";
    }

    public double offsetSeconds() {
        return offset.toNanos() / 1e9;
    }
}
