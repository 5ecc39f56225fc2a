package dev.agora.order.catalog;

import dev.agora.common.client.AbortableRequestFactory;
import dev.agora.common.client.FailoverClient;
import dev.agora.common.client.HealthProber;
import dev.agora.common.security.ServiceTokens;
import dev.agora.common.timing.ServerTiming;
import dev.agora.common.web.RequestIds;
import dev.agora.order.order.Stock;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;

/**
 * The catalog client: replicas from simple discovery, failover, hedging, ejection and readiness probes from
 * {@code dev.agora.common.client} (one mechanism for the whole system, the same the frontend uses).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(CatalogProperties.class)
class CatalogClientConfiguration {

    /** Pooled Apache HttpClient 5 (the fastest RestClient backend here). */
    @Bean(destroyMethod = "close")
    CloseableHttpClient catalogHttpClient(CatalogProperties properties) {
        var connections = PoolingHttpClientConnectionManagerBuilder.create()
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(properties.connectTimeout()))
                        .setSocketTimeout(Timeout.of(properties.readTimeout()))
                        // The replica behind an idle pooled connection may have restarted.
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
                // The failover client repeats a call, on another replica; the HTTP client must not.
                .disableAutomaticRetries()
                .disableCookieManagement()
                .evictIdleConnections(TimeValue.ofSeconds(30))
                .build();
    }

    @Bean
    FailoverClient catalogReplicas(
            RestClient.Builder restClients,
            CloseableHttpClient catalogHttpClient,
            DiscoveryClient discovery,
            CatalogProperties properties,
            MeterRegistry meters) {
        FailoverClient failover = new FailoverClient(
                restClients
                        .requestInterceptor(RequestIds.propagatingInterceptor())
                        .requestInterceptor(ServerTiming.answersInterceptor()),
                new AbortableRequestFactory(catalogHttpClient),
                serviceId -> discovery.getInstances(serviceId).stream()
                        .map(ServiceInstance::getUri)
                        .toList(),
                properties.failoverSettings(),
                meters);
        failover.instances(properties.serviceId()); // probed from the start, before the first buy
        return failover;
    }

    @Bean(destroyMethod = "close")
    HealthProber catalogHealthProber(FailoverClient catalogReplicas) {
        return new HealthProber(catalogReplicas).start();
    }

    /** Reservations carry the order service's own client-credentials token (scope {@code internal}). */
    @Bean
    Stock stock(FailoverClient catalogReplicas, CatalogProperties properties, ServiceTokens tokens) {
        return new CatalogStock(catalogReplicas, properties.serviceId(), tokens);
    }
}
