package dev.agora.common.client;

import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code agora.clients.<service-id>.*}, also from the environment in Spring's relaxed form (e.g.
 * {@code AGORA_CLIENTS_CATALOG_SERVICE_TIMEOUT}) for a service the application's configuration names.
 */
@ConfigurationProperties("agora")
public record AgoraClients(@DefaultValue Map<String, Settings> clients) {

    /** A refused connection fails at once; this bounds an unroutable one (a nearby replica connects at once). */
    public static final Duration CONNECT_TIMEOUT = Duration.ofMillis(200);

    public Settings of(String serviceId) {
        return clients.getOrDefault(serviceId, new Settings(Duration.ofSeconds(2), 200, null));
    }

    /**
     * @param timeout how long an attempt waits for its answer or a pooled connection: above the slowest answer a
     *     working replica may give, the timeouts of the tiers it calls included
     * @param maxConcurrentCalls calls in flight (the service's bulkhead); more are refused at once
     * @param notIdempotentTimeout the timeout of a call that is not idempotent ({@link ReplicaRetries}), never repeated
     *     after a timeout: it waits for the replica's own bounded answer rather than turn a write applied late into an
     *     unknown outcome. At least {@code timeout} ({@code 0}: {@code timeout})
     */
    public record Settings(
            @DefaultValue("2s") Duration timeout,
            @DefaultValue("200") int maxConcurrentCalls,
            @DefaultValue("0ms") Duration notIdempotentTimeout) {

        public Settings {
            if (!timeout.isPositive() || maxConcurrentCalls < 1)
                throw new IllegalArgumentException(
                        "agora.clients.*: timeouts and max-concurrent-calls must be positive");
            if (notIdempotentTimeout == null || notIdempotentTimeout.compareTo(timeout) < 0)
                notIdempotentTimeout = timeout;
        }
    }
}
