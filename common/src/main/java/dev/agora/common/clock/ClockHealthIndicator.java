package dev.agora.common.clock;

import java.time.Duration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Readiness by the clock: DOWN, with the reason, while the latest measured offset from the database's clock exceeds
 * {@code agora.clock.max-offset}; UP again once it does not. UNKNOWN (which leaves readiness to the other checks)
 * before the first measurement, without a database (or before it is looked for), and when no measurement succeeded for three intervals: the
 * database's own troubles are not the clock's.
 */
public final class ClockHealthIndicator implements HealthIndicator {

    private final DatabaseClock clock;
    private final Duration maxOffset;

    public ClockHealthIndicator(DatabaseClock clock, ClockProperties properties) {
        this.clock = clock;
        this.maxOffset = properties.maxOffset();
    }

    @Override
    public Health health() {
        if (!clock.hasDatabase()) {
            return Health.unknown()
                    .withDetail("reason", "no database to compare the clock with")
                    .build();
        }
        DatabaseClock.Reading reading = clock.reading();
        ClockOffset offset = reading.last();
        if (offset == null) {
            Health.Builder unknown = Health.unknown().withDetail("reason", "not measured yet");
            if (reading.lastFailure() != null) unknown.withDetail("lastFailure", reading.lastFailure());
            return unknown.build();
        }
        Duration age = reading.age();
        if (age.compareTo(clock.staleAfter()) > 0) {
            return Health.unknown()
                    .withDetail("reason", "no measurement for " + age.toSeconds() + " s")
                    .withDetail("lastFailure", String.valueOf(reading.lastFailure()))
                    .build();
        }
        Health.Builder health = offset.exceeds(maxOffset)
                ? Health.down()
                        .withDetail(
                                "reason", "clock is " + offset.describe() + "; maximum " + maxOffset.toMillis() + " ms")
                : Health.up();
        return health.withDetail("offsetSeconds", offset.offsetSeconds())
                .withDetail("roundTripSeconds", offset.roundTrip().toNanos() / 1e9)
                .withDetail("maxOffsetSeconds", maxOffset.toNanos() / 1e9)
                .withDetail("measuredAt", offset.measuredAt().toString())
                .build();
    }
}
