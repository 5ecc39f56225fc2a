package dev.agora.frontend.upstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientResponseException;

/** A tier's problem reaches the client with its status, type, detail and extra properties intact. */
class PassingOnProblemsTest {

    private HttpServer server;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/orders", exchange -> {
            byte[] body = ("{\"type\":\"https://agora.dev/problems/out-of-stock\",\"title\":\"Conflict\","
                            + "\"status\":409,\"detail\":\"Only 1 left\",\"instance\":\"/orders\",\"orderId\":42}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/problem+json");
            exchange.sendResponseHeaders(409, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void theTiersProblemIsPassedOnUnderTheFrontendsPath() {
        RestClient client = RestClient.builder()
                .baseUrl("http://127.0.0.1:" + server.getAddress().getPort())
                .build();
        RestClientResponseException answered = catchThrowableOfType(
                RestClientResponseException.class,
                () -> client.post().uri("/orders").retrieve().toBodilessEntity());

        ErrorResponseException passedOn = Upstream.passOn(answered);

        ProblemDetail problem = passedOn.getBody();
        assertThat(passedOn.getStatusCode().value()).isEqualTo(409);
        assertThat(problem.getType()).isEqualTo(URI.create("https://agora.dev/problems/out-of-stock"));
        assertThat(problem.getDetail()).isEqualTo("Only 1 left");
        assertThat(problem.getInstance()).isNull();
        assertThat(problem.getProperties()).containsEntry("orderId", 42);
    }
}
