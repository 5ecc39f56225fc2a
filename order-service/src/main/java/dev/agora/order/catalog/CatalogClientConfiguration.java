package dev.agora.order.catalog;

import dev.agora.common.security.AgoraSecurityProperties;
import dev.agora.common.web.RequestIds;
import dev.agora.order.order.Stock;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.RetryRegistry;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.restclient.autoconfigure.RestClientBuilderConfigurer;
import org.springframework.cloud.client.loadbalancer.LoadBalanced;
import org.springframework.cloud.loadbalancer.annotation.LoadBalancerClient;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(CatalogProperties.class)
@LoadBalancerClient(name = "catalog-service", configuration = CatalogLoadBalancing.class)
class CatalogClientConfiguration {

    /** Pooled Apache HttpClient 5 (the fastest RestClient backend here) with short timeouts. */
    @Bean(destroyMethod = "close")
    CloseableHttpClient catalogHttpClient(CatalogProperties properties) {
        var connections = PoolingHttpClientConnectionManagerBuilder.create()
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(properties.connectTimeout()))
                        .setSocketTimeout(Timeout.of(properties.readTimeout()))
                        .setValidateAfterInactivity(TimeValue.ofSeconds(1))
                        .build())
                .setMaxConnPerRoute(properties.maxConnections())
                .setMaxConnTotal(properties.maxConnections() * 4)
                .build();
        return HttpClients.custom()
                .setConnectionManager(connections)
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setConnectionRequestTimeout(Timeout.of(properties.readTimeout()))
                        .setResponseTimeout(Timeout.of(properties.readTimeout()))
                        .build())
                // Resilience4j retries, on the next replica; the client must not retry the same one.
                .disableAutomaticRetries()
                .evictIdleConnections(TimeValue.ofSeconds(30))
                .build();
    }

    @Bean
    @LoadBalanced
    RestClient.Builder catalogRestClientBuilder(
            RestClientBuilderConfigurer configurer, CloseableHttpClient catalogHttpClient) {
        return configurer
                .configure(RestClient.builder())
                .requestFactory(new HttpComponentsClientHttpRequestFactory(catalogHttpClient))
                .requestInterceptor(RequestIds.propagatingInterceptor());
    }

    @Bean
    UnreachableReplicas unreachableCatalogReplicas(CatalogProperties properties) {
        return new UnreachableReplicas(properties.ejection());
    }

    @Bean
    Stock stock(
            @LoadBalanced RestClient.Builder catalogRestClientBuilder,
            UnreachableReplicas unreachableCatalogReplicas,
            CatalogProperties properties,
            AgoraSecurityProperties security,
            RetryRegistry retries,
            CircuitBreakerRegistry breakers) {
        RestClient catalog = catalogRestClientBuilder
                .baseUrl("http://" + properties.serviceId())
                // Added after the load balancer's interceptor, so it sees the replica that was chosen.
                .requestInterceptor(unreachableCatalogReplicas)
                .build();
        return new CatalogStock(
                catalog, security.internalToken(), retries.retry("catalog"), breakers.circuitBreaker("catalog"));
    }
}
