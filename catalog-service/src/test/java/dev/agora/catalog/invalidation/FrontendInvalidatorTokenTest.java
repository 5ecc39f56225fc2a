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
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.cloud.client.DefaultServiceInstance;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.DiscoveryClient;

/**
 * A push carries the catalog's service token as a bearer token; when no token can be had (no frontend issues
 * one), nothing is sent and the push fails as it does against an unreachable frontend: counted, and the write
 * goes on.
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
                exchange.getRequestBody().readAllBytes();
                String authorization = exchange.getRequestHeaders().getFirst("Authorization");
                authorizations.add(authorization == null ? "(none)" : authorization);
                exchange.sendResponseHeaders(204, -1);
            }
        });
        frontend.start();
    }

    @AfterEach
    void stopFrontend() {
        frontend.stop(0);
    }

    @Test
    void aPushCarriesTheServiceTokenAsABearerToken() throws IOException {
        try (FrontendInvalidator invalidator = invalidator(() -> "the-catalogs-token")) {
            invalidator.bookChanged(new BookChanged(7, 2, "tokens", false));
        }

        assertThat(authorizations).containsExactly("Bearer the-catalogs-token");
        assertThat(failures()).isZero();
    }

    @Test
    void withoutATokenNothingIsSentAndThePushFailsAsAgainstAnUnreachableFrontend() throws IOException {
        ServiceTokens none = () -> {
            throw new IllegalStateException("no authorization server answers");
        };
        try (FrontendInvalidator invalidator = invalidator(none)) {
            invalidator.bookChanged(new BookChanged(7, 2, "tokens", false));
        }

        assertThat(authorizations).isEmpty();
        assertThat(failures()).isEqualTo(1);
    }

    private FrontendInvalidator invalidator(ServiceTokens tokens) {
        InvalidationProperties properties = new InvalidationProperties(
                true,
                "frontend-service",
                "/internal/cache/invalidations",
                Duration.ofSeconds(1),
                Duration.ofSeconds(2),
                3,
                Duration.ofSeconds(5));
        return new FrontendInvalidator(properties, discovery(), HttpClients.createDefault(), tokens, meters);
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
        ServiceInstance instance = new DefaultServiceInstance(
                "frontend-0",
                "frontend-service",
                "127.0.0.1",
                frontend.getAddress().getPort(),
                false);
        return new DiscoveryClient() {
            @Override
            public String description() {
                return "one test frontend";
            }

            @Override
            public List<ServiceInstance> getInstances(String serviceId) {
                return List.of(instance);
            }

            @Override
            public List<String> getServices() {
                return List.of("frontend-service");
            }
        };
    }
}
