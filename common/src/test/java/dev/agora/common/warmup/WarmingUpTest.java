package dev.agora.common.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.common.CommonTestApplication;
import dev.agora.common.security.testing.TestIssuer;
import java.util.Map;
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

@SpringBootTest(
        classes = {CommonTestApplication.class, WarmingUpTest.ReadinessWatch.class},
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "server.address=127.0.0.1",
            "spring.profiles.active=local",
            "spring.application.name=warm-service",
            "agora.security.client-secret=warm-service-secret-0123456789abcdef",
            "agora.warm-up.mode=before-ready",
            "agora.warm-up.max-requests=150",
        })
class WarmingUpTest {

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

    @Test
    void theServiceSendsItsWarmUpRequestsToItselfBeforeItReportsReady() {
        WarmingUp.Result result = warmingUp.result();
        assertThat(result.requests()).isEqualTo(150);
        // Item reads and the internal ping answer (the latter with the service's own token), the invalid item is
        // rejected: warm-up goes through the real edge and changes nothing.
        assertThat(result.byStatus()).isEqualTo(Map.of(200, 100L, 400, 50L));
        assertThat(readiness.itemReadsWhenReady.get()).isEqualTo(50);
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
