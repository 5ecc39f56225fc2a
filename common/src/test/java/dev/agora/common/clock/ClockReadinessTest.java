package dev.agora.common.clock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agora.common.CommonTestApplication;
import dev.agora.common.testing.TestDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A service whose clock is off by more than half a second ({@code ClockProperties.MAX_OFFSET}) from the database's reports itself not
 * ready, says why, and is ready again once its clock is back; the offset is a gauge. The service's clock is a real
 * clock moved by the test (a {@link Clock} bean, which the measurement uses), the database a real PostgreSQL.
 */
@SpringBootTest(
        classes = {CommonTestApplication.class, ClockReadinessTest.ClockAndDatabase.class},
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "server.address=127.0.0.1",
            "spring.profiles.active=local",
            "agora.clock.interval=100ms",
            "management.endpoint.health.probes.enabled=true",
            "management.endpoint.health.group.readiness.include=readinessState,clock",
            "management.endpoint.health.probes.add-additional-paths=true",
            "management.endpoint.health.show-details=always",
            "management.endpoints.web.exposure.include=health,metrics"
        })
class ClockReadinessTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The system clock, moved by as much as the test says. */
    static final class MovableClock extends Clock {
        volatile Duration skew = Duration.ZERO;

        @Override
        public Instant instant() {
            return Instant.now().plus(skew);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }
    }

    static class ClockAndDatabase {
        @Bean
        MovableClock movableClock() {
            return new MovableClock();
        }

        @Bean
        DataSource clockDatabase() {
            PGSimpleDataSource database = new PGSimpleDataSource();
            database.setUrl(TestDatabase.jdbcUrl("common_clock"));
            database.setUser(TestDatabase.username());
            database.setPassword(TestDatabase.password());
            return database;
        }
    }

    @LocalServerPort
    int port;

    @Autowired
    MovableClock clock;

    @AfterEach
    void clockRight() {
        clock.skew = Duration.ZERO;
    }

    @Test
    void aClockAheadOfTheDatabaseMakesTheServiceNotReadyWithTheReasonUntilItIsBack() throws Exception {
        await().atMost(Duration.ofSeconds(30))
                .until(() -> status("/readyz") == 200 && clockStatus().equals("UP"));
        assertThat(offsetGauge()).isBetween(-0.2, 0.2);

        clock.skew = Duration.ofMillis(900);

        await().atMost(Duration.ofSeconds(30)).until(() -> status("/readyz") == 503);
        JsonNode check = readiness().path("components").path("clock");
        assertThat(check.path("status").asString()).isEqualTo("DOWN");
        assertThat(check.path("details").path("reason").asString())
                .matches("clock is (8\\d\\d|9\\d\\d|10\\d\\d) ms ahead of the database; maximum 500 ms");
        // NTP's sign: the database's clock minus ours, negative while ours is ahead.
        assertThat(offsetGauge()).isBetween(-1.1, -0.7);
        assertThat(status("/livez")).as("a wrong clock is no reason to restart").isEqualTo(200);

        clock.skew = Duration.ZERO;

        await().atMost(Duration.ofSeconds(30)).until(() -> status("/readyz") == 200);
        assertThat(clockStatus()).isEqualTo("UP");
        assertThat(offsetGauge()).isBetween(-0.2, 0.2);
    }

    @Test
    void aClockBehindTheDatabaseIsRefusedTooAndAnOffsetWithinTheMaximumIsNot() throws Exception {
        clock.skew = Duration.ofMillis(-1500);
        // A measurement whose round trip spans the change reads half the skew (the midpoint of the two readings),
        // 750 ms, already past the maximum: wait for one taken wholly after it.
        await().atMost(Duration.ofSeconds(30))
                .until(() -> status("/readyz") == 503 && clockReason().startsWith("clock is 1"));
        assertThat(clockReason()).matches("clock is 1\\d\\d\\d ms behind the database; maximum 500 ms");
        assertThat(offsetGauge()).isBetween(1.3, 1.7);

        clock.skew = Duration.ofMillis(-250);
        await().atMost(Duration.ofSeconds(30)).until(() -> status("/readyz") == 200);
        assertThat(clockStatus()).isEqualTo("UP");
        assertThat(offsetGauge()).isBetween(0.1, 0.4);
    }

    private String clockReason() throws Exception {
        return readiness()
                .path("components")
                .path("clock")
                .path("details")
                .path("reason")
                .asString();
    }

    private String clockStatus() throws Exception {
        return readiness().path("components").path("clock").path("status").asString();
    }

    private JsonNode readiness() throws Exception {
        return JSON.readTree(get("/actuator/health/readiness").body());
    }

    private double offsetGauge() throws Exception {
        HttpResponse<String> meter = get("/actuator/metrics/agora.clock.offset");
        assertThat(meter.statusCode()).as(meter.body()).isEqualTo(200);
        JsonNode json = JSON.readTree(meter.body());
        assertThat(json.path("baseUnit").asString()).isEqualTo("seconds");
        return json.path("measurements").get(0).path("value").asDouble();
    }

    private int status(String path) throws Exception {
        return get(path).statusCode();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
