package dev.agora.common.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.common.CommonTestApplication;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A deployment moves actuator to a port of its own (MANAGEMENT_SERVER_PORT) that the edge does not publish: metrics
 * and health details leave the service port, while the readiness and liveness probes stay on it.
 */
@SpringBootTest(
        classes = CommonTestApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "server.address=127.0.0.1",
            "management.server.port=0",
            "management.server.address=127.0.0.1",
            "management.endpoint.health.probes.enabled=true",
            "management.endpoint.health.probes.add-additional-paths=true",
            "management.endpoints.web.exposure.include=health,prometheus",
            "spring.profiles.active=local"
        })
class ManagementPortTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Test
    void actuatorAnswersOnlyOnTheManagementPortAndProbesStayOnTheServicePort() throws Exception {
        assertThat(managementPort).isNotEqualTo(port);
        assertThat(status(port, "/readyz")).isEqualTo(200);
        assertThat(status(port, "/livez")).isEqualTo(200);
        assertThat(status(port, "/actuator/prometheus")).isIn(401, 404);
        assertThat(status(port, "/actuator/health")).isIn(401, 404);

        assertThat(status(managementPort, "/actuator/prometheus")).isEqualTo(200);
        assertThat(status(managementPort, "/actuator/health/readiness")).isEqualTo(200);
    }

    private static int status(int port, String path) throws Exception {
        return HTTP.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                                .build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }
}
