package dev.agora.common.warmup;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Requests a service sends itself after start-up and before it reports ready ({@code AGORA_WARMUP_ENABLED}).
 *
 * @param requests {@code METHOD /path} with an optional JSON body after a space; each must change nothing
 *     (reads, or writes the service rejects as invalid), since warm-up repeats them thousands of times
 * @param duration how long to keep sending them, at most
 * @param maxRequests stop earlier after this many
 * @param concurrency callers sending at once
 */
@ConfigurationProperties("agora.warm-up")
public record WarmUpProperties(
        @DefaultValue("false") boolean enabled,
        @DefaultValue List<String> requests,
        @DefaultValue("30s") Duration duration,
        @DefaultValue("5000") int maxRequests,
        @DefaultValue("2") int concurrency) {

    public WarmUpProperties {
        if (duration.isNegative()) throw new IllegalArgumentException("agora.warm-up.duration must not be negative");
        if (maxRequests < 0) throw new IllegalArgumentException("agora.warm-up.max-requests must not be negative");
        if (concurrency < 1) throw new IllegalArgumentException("agora.warm-up.concurrency must be at least 1");
        requests = List.copyOf(requests);
    }
}
