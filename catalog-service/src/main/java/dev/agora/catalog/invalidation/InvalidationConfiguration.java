package dev.agora.catalog.invalidation;

import dev.agora.catalog.book.BookChangeListener;
import dev.agora.common.client.AgoraClients;
import dev.agora.common.limits.BoundedExecutors;
import dev.agora.common.security.ServiceTokens;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpClient;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(InvalidationProperties.class)
class InvalidationConfiguration {

    private static final String FRONTENDS = InvalidationProperties.SERVICE_ID;

    /**
     * Acknowledgements and session events waiting for a session thread. A write waits for one acknowledgement per
     * frontend, so this is thousands of writes' acknowledgements: far more than the request threads can have in
     * flight; reaching it means the two threads are starved.
     */
    static final int SESSION_QUEUE = 10_000;

    /**
     * The sessions' messages are handled on two pooled threads with a bounded queue ({@code executor.*} metrics and
     * {@code agora.executor.rejected}, tagged {@code name=agora.invalidation.sessions}). A full queue runs the
     * message on the thread that read it (counted as a rejection): that session's reads slow down, and no
     * acknowledgement is dropped, which would cost the write waiting for it a whole lease.
     */
    @Bean(destroyMethod = "shutdownNow")
    ThreadPoolExecutor invalidationSessionThreads(MeterRegistry meters) {
        return sessionThreads(meters, SESSION_QUEUE);
    }

    static ThreadPoolExecutor sessionThreads(MeterRegistry meters, int queue) {
        ThreadPoolExecutor threads = new ThreadPoolExecutor(
                2,
                2,
                30,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(queue),
                Thread.ofPlatform().name("invalidation-session-", 0).daemon().factory(),
                new ThreadPoolExecutor.CallerRunsPolicy());
        return BoundedExecutors.monitor(meters, threads, "agora.invalidation.sessions");
    }

    /** Closed with the context (FrontendInvalidator is AutoCloseable): its sessions and thread end with it. */
    @Bean
    BookChangeListener bookChangeListener(
            InvalidationProperties properties,
            DiscoveryClient discovery,
            ServiceTokens tokens,
            ThreadPoolExecutor invalidationSessionThreads,
            MeterRegistry meters) {
        if (!properties.enabled()) return BookChangeListener.NOBODY;
        HttpClient http = HttpClient.newBuilder()
                .executor(invalidationSessionThreads)
                .connectTimeout(AgoraClients.CONNECT_TIMEOUT)
                .build();
        return new FrontendInvalidator(properties, discovery, tokens, http, AgoraClients.CONNECT_TIMEOUT, meters);
    }
}
