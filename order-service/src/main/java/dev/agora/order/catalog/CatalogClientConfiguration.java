package dev.agora.order.catalog;

import dev.agora.common.client.LoadBalancedClients;
import dev.agora.common.security.ServiceTokens;
import dev.agora.common.timing.ServerTiming;
import dev.agora.order.order.Stock;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.cloud.client.circuitbreaker.CircuitBreakerFactory;
import org.springframework.cloud.client.loadbalancer.LoadBalanced;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Scope;
import org.springframework.web.client.RestClient;

/**
 * The catalog client: a {@code @LoadBalanced RestClient.Builder} and the {@link CatalogReservations} interface on it
 * (common's {@link LoadBalancedClients}; {@code agora.clients.catalog-service.*} and
 * {@code spring.cloud.loadbalancer.retry.*} in application.yml), each call run through Spring Cloud CircuitBreaker.
 */
@Configuration(proxyBeanMethods = false)
@Import(LoadBalancedClients.class)
class CatalogClientConfiguration {

    static final String CATALOG = "catalog-service";

    /** Prototype, as Spring Boot's own builder: whoever builds a client from it gets a builder of their own. */
    @Bean
    @LoadBalanced
    @Scope("prototype")
    RestClient.Builder catalogRestClientBuilder(LoadBalancedClients clients) {
        return clients.builder(CATALOG);
    }

    @Bean
    CatalogReservations catalogReservations(LoadBalancedClients clients, @LoadBalanced RestClient.Builder catalog) {
        return clients.client(CATALOG, catalog, CatalogReservations.class);
    }

    /** The catalog's {@code Server-Timing} entries are passed on under this service's {@code catalog} entry. */
    @Bean
    RestClientCustomizer serverTimingRelayed() {
        return builder -> builder.requestInterceptor(ServerTiming.relayingInterceptor());
    }

    /** Reservations carry the order service's own client-credentials token (scope {@code internal}). */
    @Bean
    Stock stock(
            CatalogReservations catalog,
            CircuitBreakerFactory<?, ?> circuitBreakers,
            ServiceTokens tokens,
            ReservationSender sender) {
        return new CatalogStock(catalog, circuitBreakers.create(CATALOG), tokens, sender);
    }

    /** Closed with the context (its {@code close}), after the web server finished its requests. */
    @Bean
    ReservationSender reservationSender(
            CatalogReservations catalog,
            CircuitBreakerFactory<?, ?> circuitBreakers,
            ServiceTokens tokens,
            MeterRegistry meters) {
        return new ReservationSender(catalog, circuitBreakers.create(CATALOG), tokens, meters);
    }
}
