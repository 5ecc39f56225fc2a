package dev.agora.common.client;

import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.bulkhead.ThreadPoolBulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.cloud.loadbalancer.annotation.LoadBalancerClients;
import org.springframework.cloud.loadbalancer.support.LoadBalancerClientFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.web.client.RestClient;

/**
 * Replica calls for a service that has Spring Cloud LoadBalancer on (the frontend, the order service); a service
 * without it (the catalog, which only discovers the frontends, and the exchange) gets none. Every load-balanced
 * service's instance list is health-checked ({@link HealthCheckedInstances}). A service that imports
 * {@link LoadBalancedClients} (the order service) calls through {@code @LoadBalanced} clients; any other through
 * {@link ReplicaClients}.
 */
@AutoConfiguration(
        afterName = {
            "org.springframework.cloud.loadbalancer.config.LoadBalancerAutoConfiguration",
            "org.springframework.cloud.client.discovery.simple.SimpleDiscoveryClientAutoConfiguration",
            "org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration"
        })
@ConditionalOnClass(LoadBalancerClientFactory.class)
@ConditionalOnBean(LoadBalancerClientFactory.class)
@EnableConfigurationProperties(AgoraClients.class)
@LoadBalancerClients(defaultConfiguration = HealthCheckedInstances.class)
public class ReplicaClientsAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(LoadBalancedClients.class)
    ReplicaClients replicaClients(
            AgoraClients settings,
            LoadBalancerClientFactory loadBalancers,
            DiscoveryClient discovery,
            ObjectProvider<RestClient.Builder> restClients,
            MeterRegistry meters,
            Environment environment) {
        return new ReplicaClients(
                settings,
                loadBalancers,
                discovery,
                restClients.getIfAvailable(RestClient::builder),
                meters,
                serviceId -> HealthCheckedInstances.healthInterval(environment, serviceId));
    }

    /**
     * The Resilience4j registries Spring Cloud CircuitBreaker's auto-configuration takes (it binds their metrics,
     * {@code resilience4j.circuitbreaker.*}, {@code resilience4j.bulkhead.*}): Resilience4j's own Spring Boot
     * auto-configuration, which would make them, is for Spring Boot 3 and left out.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(
            name = "org.springframework.cloud.circuitbreaker.resilience4j.Resilience4JCircuitBreakerFactory")
    static class Registries {

        @Bean
        @ConditionalOnMissingBean
        CircuitBreakerRegistry circuitBreakerRegistry() {
            return CircuitBreakerRegistry.ofDefaults();
        }

        @Bean
        @ConditionalOnMissingBean
        BulkheadRegistry bulkheadRegistry() {
            return BulkheadRegistry.ofDefaults();
        }

        @Bean
        @ConditionalOnMissingBean
        ThreadPoolBulkheadRegistry threadPoolBulkheadRegistry() {
            return ThreadPoolBulkheadRegistry.ofDefaults();
        }

        @Bean
        @ConditionalOnMissingBean
        TimeLimiterRegistry timeLimiterRegistry() {
            return TimeLimiterRegistry.ofDefaults();
        }
    }
}
