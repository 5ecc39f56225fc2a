package dev.agora.perf.experiment.bookstore;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reads "back in rotation" from a caller's actuator, as a frontend answers {@code /actuator/metrics/<name>?tag=...}:
 * a small HTTP server on loopback stands for the frontend, answering per service what its gauge reads.
 */
class RotationTest {

    private final Map<String, Double> admitted = new ConcurrentHashMap<>();
    private HttpServer caller;

    @BeforeEach
    void start() throws IOException {
        caller = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 10);
        caller.createContext("/actuator/metrics/agora.client.instances.admitted", exchange -> {
            String query = exchange.getRequestURI().getQuery();
            Double value = query == null ? null : admitted.get(query.replace("tag=service:", ""));
            byte[] body = value == null
                    ? new byte[0]
                    : ("{\"name\":\"agora.client.instances.admitted\",\"measurements\":[{\"statistic\":\"VALUE\","
                                    + "\"value\":" + value + "}],\"availableTags\":[]}")
                            .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(value == null ? 404 : 200, value == null ? -1 : body.length);
            if (value != null) exchange.getResponseBody().write(body);
            exchange.close();
        });
        caller.start();
    }

    @AfterEach
    void stop() {
        caller.stop(0);
    }

    private String url() {
        return "http://127.0.0.1:" + caller.getAddress().getPort();
    }

    @Test
    void aServiceIsBackInRotationOnlyOnceEveryReplicaIsAdmitted() {
        admitted.put("catalog-service", 1.0);
        assertThat(Rotation.admitted(url(), "catalog-service")).isEqualTo(1.0);
        assertThat(Rotation.allAdmittedByAny(List.of(url()), "catalog-service", 2))
                .isFalse();

        admitted.put("catalog-service", 2.0);
        assertThat(Rotation.allAdmittedByAny(List.of(url()), "catalog-service", 2))
                .isTrue();
        assertThat(Rotation.allAdmittedByAny(List.of(url()), "order-service", 2))
                .as("a service the caller has no gauge for")
                .isFalse();
    }

    @Test
    void aCallerThatDoesNotAnswerAdmitsNothingAndTheNextCallerIsAsked() {
        admitted.put("order-service", 2.0);
        String gone = "http://127.0.0.1:1";

        assertThat(Rotation.admitted(gone, "order-service")).isEqualTo(-1);
        assertThat(Rotation.allAdmittedByAny(List.of(gone, url()), "order-service", 2))
                .isTrue();
    }
}
