package dev.agora.frontend.upstream;

import dev.agora.common.client.AbortableRequestFactory;
import dev.agora.common.client.FailoverClient;
import dev.agora.common.client.FailoverSettings;
import dev.agora.common.client.HealthProber;
import dev.agora.common.timing.ServerTiming;
import dev.agora.common.web.RequestIds;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.loadbalancer.support.LoadBalancerClientFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;

/**
 * Clients of the catalog, order and exchange tiers: a pooled Apache HttpClient 5 per tier (the fastest
 * RestClient backend measured here) with that tier's read timeout, replica lists from Spring Cloud
 * LoadBalancer, failover, hedging and health probes from {@code dev.agora.common.client}.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(FailoverSettings.class)
class UpstreamConfiguration {

    /** One connection pool per tier, closed with the context. */
    static final class TierHttpClients implements AutoCloseable {

        private final Map<Tier, CloseableHttpClient> clients = new EnumMap<>(Tier.class);

        TierHttpClients(FailoverSettings settings) {
            for (Tier tier : Tier.values()) {
                clients.put(tier, pooledHttpClient(settings, settings.readTimeout(tier.serviceId())));
            }
        }

        CloseableHttpClient of(Tier tier) {
            return clients.get(tier);
        }

        @Override
        public void close() {
            for (CloseableHttpClient client : clients.values()) {
                try {
                    client.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
    }

    @Bean(destroyMethod = "close")
    TierHttpClients tierHttpClients(FailoverSettings settings) {
        return new TierHttpClients(settings);
    }

    @Bean
    FailoverClient failoverClient(
            RestClient.Builder restClients,
            TierHttpClients http,
            LoadBalancerClientFactory loadBalancers,
            FailoverSettings settings,
            MeterRegistry meters) {
        Map<String, AbortableRequestFactory> byService = new java.util.HashMap<>();
        for (Tier tier : Tier.values()) byService.put(tier.serviceId(), new AbortableRequestFactory(http.of(tier)));
        AbortableRequestFactory other = byService.get(Tier.CATALOG.serviceId());
        FailoverClient failover = new FailoverClient(
                restClients
                        .clone()
                        .requestInterceptor(RequestIds.propagatingInterceptor())
                        .requestInterceptor(ServerTiming.answersInterceptor()),
                serviceId -> byService.getOrDefault(serviceId, other),
                new LoadBalancerInstances(loadBalancers),
                settings,
                meters);
        for (Tier tier : Tier.values()) failover.instances(tier.serviceId());
        return failover;
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
