package dev.agora.frontend.raffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agora.frontend.cluster.BookstoreCluster;
import dev.agora.frontend.cluster.Http;
import dev.agora.frontend.cluster.Metrics;
import java.time.Duration;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * A frontend started with its clock 900 ms ahead ({@code agora.clock.skew}, for tests only) measures that against
 * the database, reports itself not ready with the reason and the offset as a gauge, while the suite's frontends,
 * over the same database with right clocks, are ready. Common's {@code ClockReadinessTest} shows the recovery.
 */
class SkewedClockTest {

    @Test
    void aFrontendWhoseClockIsAheadOfTheDatabaseIsNotReadyAndSaysWhy() throws Exception {
        BookstoreCluster cluster = BookstoreCluster.get();
        try (Http http = new Http();
                ConfigurableApplicationContext skewed =
                        cluster.startAnotherFrontend("--agora.clock.skew=900ms", "--agora.clock.interval=200ms")) {
            String frontend = "http://127.0.0.1:"
                    + ((WebServerApplicationContext) skewed).getWebServer().getPort();

            await().atMost(Duration.ofSeconds(60))
                    .until(() -> http.get(frontend + "/readyz").status() == 503);
            JsonNode clock = http.get(frontend + "/actuator/health/readiness")
                    .json()
                    .path("components")
                    .path("clock");
            assertThat(clock.path("status").asString()).isEqualTo("DOWN");
            assertThat(clock.path("details").path("reason").asString())
                    .matches("clock is (8\\d\\d|9\\d\\d|1\\d\\d\\d) ms ahead of the database; maximum 500 ms");
            Http.Response gauge = http.get(
                    frontend + "/actuator/metrics/agora.clock.offset",
                    cluster.tokens().adminAuthorization());
            OptionalDouble offset = Metrics.firstMeasurement(gauge);
            assertThat(offset).as(gauge.body()).isPresent();
            assertThat(offset.getAsDouble()).isBetween(-1.2, -0.6);

            Http.Response rightClock = http.get(cluster.frontend(0) + "/actuator/health/readiness");
            assertThat(rightClock.status()).as(rightClock.body()).isEqualTo(200);
            assertThat(rightClock
                            .json()
                            .path("components")
                            .path("clock")
                            .path("status")
                            .asString())
                    .isEqualTo("UP");
        }
    }
}
