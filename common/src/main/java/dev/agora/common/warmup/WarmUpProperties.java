package dev.agora.common.warmup;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Requests a service sends itself after start-up ({@code AGORA_WARMUP_ENABLED}), before it reports ready or just
 * after.
 *
 * @param requests {@code METHOD /path} with an optional JSON body after a space; each must change nothing
 *     (reads, or writes the service rejects as invalid), since warm-up repeats them thousands of times
 * @param maxRequests stop earlier after this many
 * @param beforeReady send them before the service reports ready (callers never meet a cold service, but readiness
 *     waits for the warm-up); false sends them from a background thread once it is ready, so a cluster whose JVMs
 *     start from an AOT cache with method profiles is in service sooner and warms while it serves
 * @param exitWhenDone stop the service once warm-up is done and it was ready: the cluster launcher's AOT training
 *     run, whose JVM writes the cache when it exits, records a start plus these requests this way
 */
@ConfigurationProperties("agora.warm-up")
public record WarmUpProperties(
        @DefaultValue("false") boolean enabled,
        @DefaultValue List<String> requests,
        @DefaultValue("5000") int maxRequests,
        @DefaultValue("false") boolean beforeReady,
        @DefaultValue("false") boolean exitWhenDone) {

    /** How long warm-up sends requests at most: the JIT has compiled a request path well within it. */
    public static final Duration DURATION = Duration.ofSeconds(30);

    public WarmUpProperties {
        if (maxRequests < 0) throw new IllegalArgumentException("agora.warm-up.max-requests must not be negative");
        requests = List.copyOf(requests);
    }
}
