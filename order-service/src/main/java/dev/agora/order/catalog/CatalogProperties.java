package dev.agora.order.catalog;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the order service reaches the catalog replicas ({@code agora.catalog.*}).
 *
 * @param serviceId the replicas' discovery id ({@code agora.instances.catalog-service})
 * @param connectTimeout a dead replica is noticed within this
 * @param readTimeout a frozen replica is noticed within this; a reservation takes a few milliseconds
 * @param maxConnections pooled connections per replica
 * @param ejection how long a replica a call could not reach is skipped (health checks decide after that)
 */
@ConfigurationProperties("agora.catalog")
record CatalogProperties(
        @DefaultValue("catalog-service") String serviceId,
        @DefaultValue("250ms") Duration connectTimeout,
        @DefaultValue("1s") Duration readTimeout,
        @DefaultValue("64") int maxConnections,
        @DefaultValue("2s") Duration ejection) {}
