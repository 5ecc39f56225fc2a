package dev.agora.catalog.invalidation;

import dev.agora.catalog.book.BookChangeListener;
import dev.agora.common.client.AgoraClients;
import dev.agora.common.security.ServiceTokens;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ExecutorServiceMetrics;
import java.net.http.HttpClient;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({InvalidationProperties.class, AgoraClients.class})
class InvalidationConfiguration {

    private static final String FRONTENDS = "frontend-service";

    /**
     * The sessions' messages are handled on two pooled threads with a bounded queue ({@code executor.*} metrics
     * tagged {@code name=agora.invalidation.sessions}); a full queue runs the message on the thread that read it.
     */
    @Bean(destroyMethod = "shutdownNow")
    ThreadPoolExecutor invalidationSessionThreads(MeterRegistry meters) {
        ThreadPoolExecutor threads = new ThreadPoolExecutor(
                2,
                2,
                30,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(10_000),
                Thread.ofPlatform().name("invalidation-session-", 0).daemon().factory(),
                new ThreadPoolExecutor.CallerRunsPolicy());
        ExecutorServiceMetrics.monitor(meters, threads, "agora.invalidation.sessions");
        return threads;
    }

    /** Closed with the context (FrontendInvalidator is AutoCloseable): its sessions and thread end with it. */
    @Bean
    BookChangeListener bookChangeListener(
            InvalidationProperties properties,
            AgoraClients clients,
            DiscoveryClient discovery,
            ServiceTokens tokens,
            ThreadPoolExecutor invalidationSessionThreads,
            MeterRegistry meters) {
        if (!properties.enabled()) return BookChangeListener.NOBODY;
        HttpClient http = HttpClient.newBuilder()
                .executor(invalidationSessionThreads)
                .connectTimeout(clients.of(FRONTENDS).connectTimeout())
                .build();
        return new FrontendInvalidator(
                properties, discovery, tokens, http, clients.of(FRONTENDS).connectTimeout(), meters);
    }
}
