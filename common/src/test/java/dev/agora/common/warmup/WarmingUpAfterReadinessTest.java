package dev.agora.common.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.common.CommonTestApplication;
import dev.agora.common.security.testing.TestIssuer;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** With {@code agora.warm-up.mode=after-ready} (the launcher's), the service is ready first and warms up after. */
@SpringBootTest(
        classes = {CommonTestApplication.class, WarmingUpAfterReadinessTest.ReadinessWatch.class},
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "server.address=127.0.0.1",
            "spring.profiles.active=local",
            "spring.application.name=warm-service",
            "agora.security.client-secret=warm-service-secret-0123456789abcdef",
            "agora.warm-up.mode=after-ready",
            "agora.warm-up.max-requests=90",
        })
class WarmingUpAfterReadinessTest {

    private static final TestIssuer ISSUER =
            new TestIssuer().registerClient("warm-service", "warm-service-secret-0123456789abcdef");

    @DynamicPropertySource
    static void authorities(DynamicPropertyRegistry registry) {
        registry.add("agora.security.authorities", ISSUER::url);
    }

    @AfterAll
    static void stopIssuer() {
        ISSUER.close();
    }

    @Autowired
    WarmingUp warmingUp;

    @Autowired
    ReadinessWatch readiness;

    @Autowired
    CommonTestApplication.Endpoints endpoints;

    @Test
    void theServiceReportsReadyFirstAndThenSendsItsWarmUpRequestsToItself() throws InterruptedException {
        assertThat(readiness.itemReadsWhenReady.get())
                .as("item reads when ready")
                .isZero();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (warmingUp.result().requests() == 0 && System.nanoTime() < deadline) Thread.sleep(50);

        WarmingUp.Result result = warmingUp.result();
        assertThat(result.requests()).isEqualTo(90);
        // Reads answered and the invalid item refused, as before readiness; but now the service is in service
        // meanwhile, so on a loaded machine a request may time out (0) without holding anything up.
        assertThat(result.byStatus()).containsKeys(200, 400);
        assertThat(result.byStatus().keySet()).isSubsetOf(Set.of(200, 400, 0));
        assertThat(result.byStatus().getOrDefault(0, 0L)).isLessThan(5);
        assertThat(endpoints.itemReads()).as("item reads served after ready").isPositive();
    }

    /** Notes how many item reads the service had served when it reported ready. */
    @TestConfiguration
    static class ReadinessWatch {

        final AtomicInteger itemReadsWhenReady = new AtomicInteger(-1);

        @Bean
        ApplicationListener<AvailabilityChangeEvent<ReadinessState>> noteItemReadsWhenReady(
                CommonTestApplication.Endpoints endpoints) {
            return event -> {
                if (event.getState() == ReadinessState.ACCEPTING_TRAFFIC) {
                    itemReadsWhenReady.set(endpoints.itemReads());
                }
            };
        }
    }
}
