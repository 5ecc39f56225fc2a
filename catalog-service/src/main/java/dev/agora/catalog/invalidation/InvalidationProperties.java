package dev.agora.catalog.invalidation;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Push of cache invalidations to the frontends ({@code agora.invalidation.*}).
 *
 * @param enabled off for a catalog that serves no caching frontend (tests of other services, benchmarks)
 * @param serviceId whose instances get every invalidation (simple discovery, {@code agora.instances.*})
 * @param path the frontends' invalidation endpoint
 * @param connectTimeout per attempt
 * @param readTimeout per attempt
 * @param attempts tries per frontend and change, the first included
 * @param deadline longest a write waits for its pushes; a push still running then finishes in the background
 */
@ConfigurationProperties("agora.invalidation")
record InvalidationProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("frontend-service") String serviceId,
        @DefaultValue("/internal/cache/invalidations") String path,
        @DefaultValue("200ms") Duration connectTimeout,
        @DefaultValue("200ms") Duration readTimeout,
        @DefaultValue("3") int attempts,
        @DefaultValue("250ms") Duration deadline) {}
