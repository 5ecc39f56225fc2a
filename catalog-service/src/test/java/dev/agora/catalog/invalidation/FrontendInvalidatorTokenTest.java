package dev.agora.catalog.invalidation;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.agora.catalog.book.BookChanged;
import dev.agora.common.security.ServiceTokens;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.cloud.client.discovery.simple.InstanceProperties;
import org.springframework.cloud.client.discovery.simple.SimpleDiscoveryClient;
import org.springframework.cloud.client.discovery.simple.SimpleDiscoveryProperties;

/**
 * An invalidation session opens with the catalog's service token as a bearer token on its handshake; when no token
 * can be had (no frontend issues one), nothing is sent and the push fails as against an unreachable frontend:
 * counted, and the write goes on. The frontend here refuses every handshake (401), as a real one refuses a token it
 * does not accept.
 */
class FrontendInvalidatorTokenTest {

    private final ConcurrentLinkedQueue<String> authorizations = new ConcurrentLinkedQueue<>();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private HttpServer frontend;

    @BeforeEach
    void startFrontend() throws IOException {
        frontend = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        frontend.createContext("/internal/cache/invalidations", exchange -> {
            try (exchange) {
                String authorization = exchange.getRequestHeaders().getFirst("Authorization");
                authorizations.add(authorization == null ? "(none)" : authorization);
                exchange.sendResponseHeaders(401, -1);
            }
        });
        frontend.start();
    }

    @AfterEach
    void stopFrontend() {
        frontend.stop(0);
    }

    @Test
    void aSessionOpensWithTheServiceTokenAsABearerToken() {
        try (FrontendInvalidator invalidator = invalidator(() -> "the-catalogs-token")) {
            invalidator.bookChanged(new BookChanged(7, 2, "tokens", false));
        }

        assertThat(authorizations).contains("Bearer the-catalogs-token").doesNotContain("(none)");
        assertThat(failures()).isEqualTo(1);
    }

    @Test
    void withoutATokenNothingIsSentAndThePushFailsAsAgainstAnUnreachableFrontend() {
        ServiceTokens none = () -> {
            throw new IllegalStateException("no authorization server answers");
        };
        long started = System.nanoTime();
        try (FrontendInvalidator invalidator = invalidator(none)) {
            invalidator.bookChanged(new BookChanged(7, 2, "tokens", false));
        }

        assertThat(authorizations).isEmpty();
        assertThat(failures()).isEqualTo(1);
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("a frontend that never held a lease is not waited for")
                .isLessThan(Duration.ofSeconds(4));
    }

    private FrontendInvalidator invalidator(ServiceTokens tokens) {
        InvalidationProperties properties = new InvalidationProperties(true, Duration.ofSeconds(5));
        return new FrontendInvalidator(
                properties, discovery(), tokens, HttpClient.newHttpClient(), Duration.ofSeconds(1), meters);
    }

    private String url() {
        return "http://127.0.0.1:" + frontend.getAddress().getPort();
    }

    private double failures() {
        Counter counter = meters.find("agora.invalidation.failures")
                .tag("target", URI.create(url()).toString())
                .counter();
        return counter == null ? 0 : counter.count();
    }

    private DiscoveryClient discovery() {
        var instance = new InstanceProperties();
        instance.setServiceId("frontend-service");
        instance.setUri(URI.create("http://127.0.0.1:" + frontend.getAddress().getPort()));
        var properties = new SimpleDiscoveryProperties();
        properties.setInstances(Map.of("frontend-service", List.of(instance)));
        return new SimpleDiscoveryClient(properties);
    }
}
