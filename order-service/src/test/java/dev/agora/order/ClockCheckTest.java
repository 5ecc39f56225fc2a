package dev.agora.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * The order service measures its clock against its database's and counts it in readiness (common's clock check; a
 * skewed instance is refused in common's {@code ClockReadinessTest} and the frontend's {@code SkewedClockTest}).
 */
@Order(1)
class ClockCheckTest extends OrderTestSupport {

    @Test
    void readinessIncludesTheClockCheckAndTheOffsetIsAGauge() {
        await().atMost(Duration.ofSeconds(30)).until(() -> getAs(null, "/readyz")
                .json()
                .path("components")
                .path("clock")
                .path("status")
                .asString()
                .equals("UP"));
        Response readiness = getAs(null, "/readyz");
        assertThat(readiness.status()).isEqualTo(200);
        assertThat(readiness
                        .json()
                        .path("components")
                        .path("clock")
                        .path("details")
                        .path("maxOffsetSeconds")
                        .asDouble())
                .isEqualTo(0.5);
        // The same host's clock and database: well within the maximum.
        assertThat(meter("agora.clock.offset")).isBetween(-0.5, 0.5);
    }
}
