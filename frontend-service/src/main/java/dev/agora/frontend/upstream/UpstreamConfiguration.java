package dev.agora.frontend.upstream;

import dev.agora.common.client.FailoverClient;
import dev.agora.common.client.FailoverSettings;
import dev.agora.common.client.HealthProber;
import dev.agora.common.web.RequestIds;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.loadbalancer.support.LoadBalancerClientFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * Clients of the catalog, order and exchange tiers: one pooled Apache HttpClient 5 (the fastest RestClient
 * backend measured here), replica lists from Spring Cloud LoadBalancer, failover and health probes from
 * {@code dev.agora.common.client}.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(FailoverSettings.class)
class UpstreamConfiguration {

    @Bean(destroyMethod = "close")
    CloseableHttpClient upstreamHttpClient(FailoverSettings settings) {
        return pooledHttpClient(settings, settings.readTimeout());
    }

    /** The order tier calls the catalog itself (with its own failover), so its answers may take longer. */
    @Bean(destroyMethod = "close")
    CloseableHttpClient orderHttpClient(
            FailoverSettings settings, @Value("${agora.upstream.order-read-timeout:3s}") Duration readTimeout) {
        return pooledHttpClient(settings, readTimeout);
    }

    @Bean
    FailoverClient failoverClient(
            RestClient.Builder restClients,
            CloseableHttpClient upstreamHttpClient,
            CloseableHttpClient orderHttpClient,
            LoadBalancerClientFactory loadBalancers,
            FailoverSettings settings,
            MeterRegistry meters) {
        RestClient base = restClient(restClients, upstreamHttpClient);
        RestClient orders = restClient(restClients, orderHttpClient);
        FailoverClient failover = new FailoverClient(
                serviceId -> serviceId.equals(Tier.ORDER.serviceId()) ? orders : base,
                new LoadBalancerInstances(loadBalancers),
                settings,
                meters);
        for (Tier tier : Tier.values()) failover.instances(tier.serviceId());
        return failover;
    }

    private static RestClient restClient(RestClient.Builder restClients, CloseableHttpClient http) {
        return restClients
                .clone()
                .requestFactory(new HttpComponentsClientHttpRequestFactory(http))
                .requestInterceptor(RequestIds.propagatingInterceptor())
                .build();
    }

    private static CloseableHttpClient pooledHttpClient(FailoverSettings settings, Duration readTimeout) {
        Timeout connect = Timeout.of(settings.connectTimeout());
        Timeout read = Timeout.of(readTimeout);
        var connections = PoolingHttpClientConnectionManagerBuilder.create()
                .setMaxConnPerRoute(settings.maxConnections())
                .setMaxConnTotal(settings.maxConnections() * 8)
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(connect)
                        .setSocketTimeout(read)
                        // A pooled connection idle this long is checked before reuse: the replica behind it
                        // may have restarted, and a dead connection would count as the replica failing.
                        .setValidateAfterInactivity(TimeValue.ofSeconds(1))
                        .build())
                .build();
        return HttpClients.custom()
                .setConnectionManager(connections)
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setResponseTimeout(read)
                        .setConnectionRequestTimeout(read)
                        .build())
                // Retries belong to the failover client, which sends them to a different replica.
                .disableAutomaticRetries()
                .disableCookieManagement()
                .evictIdleConnections(TimeValue.ofSeconds(10))
                .build();
    }

    @Bean(destroyMethod = "close")
    HealthProber healthProber(FailoverClient failover) {
        return new HealthProber(failover).start();
    }

    @Bean
    Upstream upstream(FailoverClient failover) {
        return new Upstream(failover);
    }
}
