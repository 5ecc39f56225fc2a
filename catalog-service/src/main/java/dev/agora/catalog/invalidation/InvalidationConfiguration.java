package dev.agora.catalog.invalidation;

import dev.agora.catalog.book.BookChangeListener;
import dev.agora.common.security.ServiceTokens;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(InvalidationProperties.class)
class InvalidationConfiguration {

    @Bean
    BookChangeListener bookChangeListener(
            InvalidationProperties properties, DiscoveryClient discovery, ServiceTokens tokens, MeterRegistry meters) {
        if (!properties.enabled()) return BookChangeListener.NOBODY;
        return new FrontendInvalidator(properties, discovery, pooledClient(properties), tokens, meters);
    }

    /**
     * Kept-alive connections make a push one small request on an open socket; the short timeouts bound what
     * a dead or frozen frontend costs. Retries are ours (within the deadline), not the client's.
     */
    private static CloseableHttpClient pooledClient(InvalidationProperties properties) {
        var connections = PoolingHttpClientConnectionManagerBuilder.create()
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(properties.connectTimeout()))
                        .setSocketTimeout(Timeout.of(properties.readTimeout()))
                        .setValidateAfterInactivity(TimeValue.ofSeconds(1))
                        .build())
                .setMaxConnPerRoute(64)
                .setMaxConnTotal(256)
                .build();
        return HttpClients.custom()
                .setConnectionManager(connections)
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setConnectionRequestTimeout(Timeout.of(properties.readTimeout()))
                        .setResponseTimeout(Timeout.of(properties.readTimeout()))
                        .build())
                .disableAutomaticRetries()
                .evictIdleConnections(TimeValue.ofSeconds(30))
                .build();
    }
}
