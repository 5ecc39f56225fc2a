package dev.agora.docker;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * docker/healthcheck.sh, the probe baked into every service image, run as a real bash process against a real
 * HTTP server on a free loopback port: healthy only when readiness answers 200.
 */
class HealthcheckScriptTest {

    private HttpServer server;
    private final AtomicInteger readinessStatus = new AtomicInteger(200);
    private final AtomicReference<String> requestedPath = new AtomicReference<>();

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            requestedPath.set(exchange.getRequestURI().getPath());
            byte[] body = "{\"status\":\"UP\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(readinessStatus.get(), body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    private record Outcome(int exitCode, String output) {}

    private static Outcome probe(Map<String, String> environment) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(
                        "bash", DockerDirectory.file("healthcheck.sh").toString())
                .redirectErrorStream(true);
        builder.environment().remove("PORT");
        builder.environment().putAll(environment);
        Process process = builder.start();
        try {
            // The script gives up reading after 3 s; anything beyond this bound is a hung probe.
            boolean finished = process.waitFor(20, TimeUnit.SECONDS);
            assertThat(finished).as("probe finished").isTrue();
            return new Outcome(
                    process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        } finally {
            process.destroyForcibly();
        }
    }

    private Outcome probeServer() throws Exception {
        return probe(Map.of("PORT", String.valueOf(server.getAddress().getPort())));
    }

    @Test
    void aReadyServiceIsHealthy() throws Exception {
        Outcome outcome = probeServer();

        assertThat(outcome.exitCode()).as(outcome.output()).isZero();
        assertThat(requestedPath.get()).isEqualTo("/readyz");
    }

    @Test
    void aServiceOutOfServiceIsUnhealthy() throws Exception {
        readinessStatus.set(503);

        Outcome outcome = probeServer();

        assertThat(outcome.exitCode()).isNotZero();
        assertThat(outcome.output()).contains("HTTP 503");
    }

    @Test
    void nothingListeningIsUnhealthy() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }

        assertThat(probe(Map.of("PORT", String.valueOf(closedPort))).exitCode()).isNotZero();
    }

    @Test
    void aFrozenServiceThatAcceptsButNeverAnswersIsUnhealthy() throws Exception {
        // The kernel completes the handshake from the backlog, as for a SIGSTOPped JVM; nobody ever reads.
        try (ServerSocket frozen = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            Outcome outcome = probe(Map.of("PORT", String.valueOf(frozen.getLocalPort())));

            assertThat(outcome.exitCode()).isNotZero();
            assertThat(outcome.output()).contains("no answer");
        }
    }

    @Test
    void withoutAPortTheProbeFailsInsteadOfGuessing() throws Exception {
        Outcome outcome = probe(Map.of());

        assertThat(outcome.exitCode()).isNotZero();
        assertThat(outcome.output()).contains("PORT is not set");
    }
}
