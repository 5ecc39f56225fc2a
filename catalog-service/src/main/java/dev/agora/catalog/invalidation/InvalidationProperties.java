package dev.agora.catalog.invalidation;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Invalidations pushed to the frontends ({@code agora.invalidation.*}); the sessions' connect timeout is
 * common's {@code AgoraClients.CONNECT_TIMEOUT}, as for any call to another service.
 *
 * @param enabled off for a catalog that serves no caching frontend (tests of other services, benchmarks)
 * @param lease how long a frontend may use its cache after the catalog last granted it a lease; also how long a
 *     write waits for a frontend's acknowledgement before it stops granting that frontend leases, so a frozen or
 *     cut-off frontend delays a write by at most about this
 */
@ConfigurationProperties("agora.invalidation")
record InvalidationProperties(@DefaultValue("true") boolean enabled, @DefaultValue("1s") Duration lease) {

    /** Whose instances get every invalidation (simple discovery, {@code agora.instances.frontend-service}). */
    static final String SERVICE_ID = "frontend-service";

    InvalidationProperties {
        if (lease == null || lease.toMillis() < 400) {
            throw new IllegalArgumentException("agora.invalidation.lease must be at least 400ms");
        }
    }
}
