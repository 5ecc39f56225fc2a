package dev.agora.common.warmup;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Whether and when a service sends itself its {@link WarmUpRequests} after start-up ({@code AGORA_WARMUP_MODE}),
 * before it reports ready or just after (at most {@code max-requests}, and {@link #DURATION}); not by default.
 */
@ConfigurationProperties("agora.warm-up")
public record WarmUpProperties(@DefaultValue("5000") int maxRequests, @DefaultValue("off") Mode mode) {

    public enum Mode {
        /** No warm-up: tests, and instances whose AOT cache was trained on real work. */
        OFF,
        /**
         * From a background thread once the service is ready: a cluster whose JVMs start from an AOT cache with method
         * profiles is in service sooner and warms while it serves (the launcher's).
         */
        AFTER_READY,
        /** Before the service reports ready: callers never meet a cold service, but readiness waits for the warm-up. */
        BEFORE_READY,
        /**
         * Before ready, then the service stops: the cluster launcher's AOT training run, whose JVM writes the cache
         * when it exits, records a start plus these requests this way.
         */
        TRAINING;

        boolean beforeReady() {
            return this == BEFORE_READY || this == TRAINING;
        }
    }

    /** How long warm-up sends requests at most: the JIT has compiled a request path well within it. */
    public static final Duration DURATION = Duration.ofSeconds(30);

    public WarmUpProperties {
        if (maxRequests < 0) throw new IllegalArgumentException("agora.warm-up.max-requests must not be negative");
    }
}
