package dev.agora.common.clock;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The instance's clock against the database's ({@code agora.clock.*}).
 *
 * @param interval how often the offset is measured (one query each time)
 * @param skew for tests only: moves the instance's own clock by this much (positive: ahead), so a test can start a
 *     service whose clock is wrong; never set it in a deployment
 */
@ConfigurationProperties("agora.clock")
public record ClockProperties(@DefaultValue("5s") Duration interval, @DefaultValue("0ms") Duration skew) {

    /**
     * The largest offset, either way, at which the instance still reports itself ready: half a second is far beyond
     * what NTP keeps hosts within, and far below the leases (seconds) whose expiry instances write by their clocks.
     */
    public static final Duration MAX_OFFSET = Duration.ofMillis(500);

    public ClockProperties {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("agora.clock.interval must be positive, got " + interval);
        }
    }
}
