package dev.agora.common.warmup;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Whether a service sends itself its {@link WarmUpRequests} before it reports ready ({@code AGORA_WARMUP_MODE}; at most
 * {@code max-requests}, and {@link #DURATION}); not by default.
 */
@ConfigurationProperties("agora.warm-up")
public record WarmUpProperties(@DefaultValue("5000") int maxRequests, @DefaultValue("off") Mode mode) {

    public enum Mode {
        /**
         * No warm-up. There is no mode that warms once ready: on the launcher's two cores such a warm-up took the CPU
         * the first callers needed, whose buys were slower with it than without (launcher README, point 4).
         */
        OFF,
        /** Before the service reports ready: callers never meet a cold service, but readiness waits for the warm-up. */
        BEFORE_READY,
        /** Before ready, then the service stops: the launcher's AOT training run (a start plus these requests). */
        TRAINING
    }

    /** How long warm-up sends requests at most: the JIT has compiled a request path well within it. */
    public static final Duration DURATION = Duration.ofSeconds(30);

    public WarmUpProperties {
        if (maxRequests < 0) throw new IllegalArgumentException("agora.warm-up.max-requests must not be negative");
    }
}
