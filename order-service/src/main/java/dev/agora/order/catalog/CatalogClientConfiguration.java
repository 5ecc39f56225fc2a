package dev.agora.order.catalog;

import dev.agora.common.client.ReplicaClients;
import dev.agora.common.security.ServiceTokens;
import dev.agora.order.order.Stock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The catalog client: common's {@link ReplicaClients} ({@code agora.clients.catalog-service.*}), the same way the
 * frontend reaches its tiers.
 */
@Configuration(proxyBeanMethods = false)
class CatalogClientConfiguration {

    static final String CATALOG = "catalog-service";

    /** Reservations carry the order service's own client-credentials token (scope {@code internal}). */
    @Bean
    Stock stock(ReplicaClients replicas, ServiceTokens tokens) {
        return new CatalogStock(replicas, CATALOG, tokens);
    }
}
