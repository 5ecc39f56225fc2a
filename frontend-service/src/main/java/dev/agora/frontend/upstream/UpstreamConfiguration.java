package dev.agora.frontend.upstream;

import dev.agora.common.client.LoadBalancedClients;
import dev.agora.common.timing.ServerTiming;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.cloud.client.circuitbreaker.CircuitBreakerFactory;
import org.springframework.cloud.client.loadbalancer.LoadBalanced;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Scope;
import org.springframework.web.client.RestClient;

/**
 * The tiers behind the frontend, each called through a {@code @LoadBalanced RestClient.Builder} of common's
 * {@link LoadBalancedClients} ({@code agora.clients.<service-id>.*} and {@code spring.cloud.loadbalancer.*} in
 * application.yml). The builders are no default candidates, so that Spring Boot's own builder stays the one injected
 * by type elsewhere (pages calling the public API).
 */
@Configuration(proxyBeanMethods = false)
@Import(LoadBalancedClients.class)
class UpstreamConfiguration {

    @Bean(defaultCandidate = false)
    @LoadBalanced
    @Scope("prototype")
    RestClient.Builder catalogRestClientBuilder(LoadBalancedClients clients) {
        return clients.builder(Tier.CATALOG.serviceId());
    }

    @Bean(defaultCandidate = false)
    @LoadBalanced
    @Scope("prototype")
    RestClient.Builder orderRestClientBuilder(LoadBalancedClients clients) {
        return clients.builder(Tier.ORDER.serviceId());
    }

    @Bean(defaultCandidate = false)
    @LoadBalanced
    @Scope("prototype")
    RestClient.Builder exchangeRestClientBuilder(LoadBalancedClients clients) {
        return clients.builder(Tier.EXCHANGE.serviceId());
    }

    @Bean
    Upstream upstream(
            LoadBalancedClients clients,
            CircuitBreakerFactory<?, ?> circuitBreakers,
            @Qualifier("catalogRestClientBuilder") RestClient.Builder catalog,
            @Qualifier("orderRestClientBuilder") RestClient.Builder order,
            @Qualifier("exchangeRestClientBuilder") RestClient.Builder exchange) {
        return new Upstream(
                Map.of(
                        Tier.CATALOG, clients.restClient(Tier.CATALOG.serviceId(), catalog),
                        Tier.ORDER, clients.restClient(Tier.ORDER.serviceId(), order),
                        Tier.EXCHANGE, clients.restClient(Tier.EXCHANGE.serviceId(), exchange)),
                circuitBreakers);
    }

    /** Each tier's {@code Server-Timing} entries are passed on under its name ({@link Upstream#call}). */
    @Bean
    RestClientCustomizer serverTimingRelayed() {
        return builder -> builder.requestInterceptor(ServerTiming.relayingInterceptor());
    }

    @Bean
    FailoverNotice failoverNotice(MeterRegistry meters) {
        return new FailoverNotice(meters);
    }

    @Bean
    FilterRegistrationBean<ClientsNameNoWriter> clientsNameNoWriter() {
        var registration = new FilterRegistrationBean<>(new ClientsNameNoWriter());
        registration.setOrder(ClientsNameNoWriter.ORDER);
        return registration;
    }
}
