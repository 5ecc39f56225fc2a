package dev.agora.common.client;

import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.bulkhead.ThreadPoolBulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.loadbalancer.annotation.LoadBalancerClients;
import org.springframework.cloud.loadbalancer.support.LoadBalancerClientFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Replica calls for a service with Spring Cloud LoadBalancer, spring-retry and Spring Cloud CircuitBreaker (frontend,
 * order service): health-checked instance lists ({@link HealthCheckedInstances}), {@link ReplicaRetries}, and the
 * Resilience4j registries Spring Cloud CircuitBreaker takes (Resilience4j's Boot 4 starter would also buffer events).
 */
@AutoConfiguration(
        afterName = {
            "org.springframework.cloud.loadbalancer.config.LoadBalancerAutoConfiguration",
            "org.springframework.cloud.client.discovery.simple.SimpleDiscoveryClientAutoConfiguration"
        },
        beforeName = {
            "org.springframework.cloud.loadbalancer.config.BlockingLoadBalancerClientAutoConfiguration",
            "org.springframework.cloud.circuitbreaker.resilience4j.Resilience4JAutoConfiguration"
        })
@ConditionalOnClass(
        value = LoadBalancerClientFactory.class,
        name = {
            "org.springframework.retry.support.RetryTemplate",
            "org.springframework.cloud.circuitbreaker.resilience4j.Resilience4JCircuitBreakerFactory"
        })
@ConditionalOnBean(LoadBalancerClientFactory.class)
@EnableConfigurationProperties(AgoraClients.class)
@LoadBalancerClients(defaultConfiguration = HealthCheckedInstances.class)
@Import(ReplicaRetries.class)
public class LoadBalancedClientsAutoConfiguration {

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
