package dev.agora.common.clock;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The instance's clock against the database's ({@code agora.clock.*}).
 *
 * @param enabled whether the clock is measured and takes part in readiness
 * @param interval how often the offset is measured (one query each time)
 * @param maxOffset the largest offset, either way, at which the instance still reports itself ready
 * @param skew for tests only: moves the instance's own clock by this much (positive: ahead), so a test can start a
 *     service whose clock is wrong; never set it in a deployment
 */
@ConfigurationProperties("agora.clock")
public record ClockProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("5s") Duration interval,
        @DefaultValue("500ms") Duration maxOffset,
        @DefaultValue("0ms") Duration skew) {

    public ClockProperties {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("agora.clock.interval must be positive, got " + interval);
        }
        if (maxOffset.isNegative() || maxOffset.isZero()) {
            throw new IllegalArgumentException("agora.clock.max-offset must be positive, got " + maxOffset);
        }
    }
}
