package dev.agora.common.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.agora.common.CommonTestApplication;
import dev.agora.common.security.testing.TestIssuer;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The last resort of replica calls (Envoy's panic mode), through the real stack against real HTTP replicas on
 * loopback that can be stopped and started again on their port: a call is answered by a replica that is up even when
 * its breaker refuses (open, or half-open with its trial permissions taken) or when every readiness probe goes
 * unanswered; a 503 comes only after an attempt really failed. The replicas are {@link ReplicaServer}s.
 */
@SpringBootTest(
        classes = CommonTestApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = {
            "spring.profiles.active=local",
            // breakers stay open for two intervals (1 s): long enough for a call made right after opening one
            "spring.cloud.loadbalancer.health-check.interval=500ms",
            "agora.clients.plain.timeout=1s",
            "agora.clients.hedged.timeout=2s",
            "agora.clients.hedged.hedge-after=50ms"
        })
class LastResortTest {

    private static final List<String> SERVICES = List.of("plain", "hedged");

    private static final TestIssuer ISSUER = new TestIssuer();
    private static final ReplicaServer FIRST = new ReplicaServer();
    private static final ReplicaServer SECOND = new ReplicaServer();

    @DynamicPropertySource
    static void replicas(DynamicPropertyRegistry registry) {
        registry.add("agora.security.authorities", ISSUER::url);
        for (String service : SERVICES) {
            String prefix = "spring.cloud.discovery.client.simple.instances." + service;
            registry.add(prefix + "[0].uri", () -> FIRST.uri().toString());
            registry.add(prefix + "[1].uri", () -> SECOND.uri().toString());
        }
    }

    @AfterAll
    static void stopAll() {
        FIRST.stop();
        SECOND.stop();
        ISSUER.close();
    }

    @Autowired
    ReplicaClients clients;

    @Autowired
    MeterRegistry meters;

    @BeforeEach
    void bothReplicasUpAndAdmitted() {
        for (ReplicaServer replica : List.of(FIRST, SECOND)) {
            replica.reset();
        }
        for (String service : SERVICES) {
            for (ReplicaServer replica : List.of(FIRST, SECOND)) {
                clients.of(service).breaker(replica.uri()).reset();
            }
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> clients.admitted(service).size() == 2);
        }
    }

    private String get(String service, CallSafety safety) {
        return clients.call(
                service,
                safety,
                replica -> replica.client().get().uri("/item").retrieve().body(String.class));
    }

    private double lastResorts(String service) {
        return meters.counter("agora.client.last.resorts", "service", service).count();
    }

    /** The first replica is stopped and out of the health-checked list: the second is the only one. */
    private void onlySecondListed() {
        FIRST.stop();
        for (String service : SERVICES) {
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> clients.admitted(service).equals(List.of(SECOND.uri())));
        }
    }

    @Test
    void theOnlyLiveReplicaServesCallsWhileItsBreakerIsOpen() {
        onlySecondListed();

        for (String service : SERVICES) {
            for (CallSafety safety : CallSafety.values()) {
                CircuitBreaker breaker = clients.of(service).breaker(SECOND.uri());
                breaker.transitionToOpenState();
                assertThat(clients.lastResorts(service)).containsExactly(SECOND.uri());
                double before = lastResorts(service);
                int served = SECOND.served.get();

                assertThat(get(service, safety)).isEqualTo("port " + SECOND.port);

                assertThat(SECOND.served.get() - served).isEqualTo(1);
                assertThat(lastResorts(service) - before).isEqualTo(1);
                assertThat(breaker.getState())
                        .as("the last resort bypasses the breaker; it reopens by its own trial calls")
                        .isEqualTo(CircuitBreaker.State.OPEN);
            }
        }
    }

    @Test
    void aLeakedHalfOpenPermitNeitherRefusesCallsNorKeepsTheBreakerHalfOpen() {
        onlySecondListed();
        CircuitBreaker breaker = clients.of("plain").breaker(SECOND.uri());
        breaker.transitionToOpenState();
        breaker.transitionToHalfOpenState();
        // Two trial permissions taken and never recorded or released: the leak the breaker must survive.
        assertThat(breaker.tryAcquirePermission()).isTrue();
        assertThat(breaker.tryAcquirePermission()).isTrue();
        assertThat(breaker.tryAcquirePermission()).isFalse();
        long leaked = System.nanoTime();

        assertThat(get("plain", CallSafety.IDEMPOTENT)).isEqualTo("port " + SECOND.port);

        Duration maxHalfOpen = ReplicaClients.maxHalfOpen(clients.of("plain").settings());
        await().atMost(maxHalfOpen.plusSeconds(3)).until(() -> breaker.getState() != CircuitBreaker.State.HALF_OPEN);
        assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
        assertThat(Duration.ofNanos(System.nanoTime() - leaked))
                .as("half-open for its maximum wait, no shorter")
                .isGreaterThanOrEqualTo(maxHalfOpen.minusMillis(100));
        // From open it goes half-open with fresh trial permissions, and closes when they succeed.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(get("plain", CallSafety.IDEMPOTENT)).isEqualTo("port " + SECOND.port);
            assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
        });
    }

    @Test
    void anAttemptThatThrowsAnErrorGivesItsTrialPermissionBack() {
        CircuitBreaker breaker = clients.of("plain").breaker(FIRST.uri());
        breaker.transitionToOpenState();
        breaker.transitionToHalfOpenState();
        int errors = 0;
        // Round robin sends one call in two to the first replica: its attempts end in an Error, not an exception.
        for (int i = 0; i < 6; i++) {
            try {
                clients.call("plain", CallSafety.IDEMPOTENT, replica -> {
                    if (replica.uri().equals(FIRST.uri())) throw new LinkageError("the attempt itself broke");
                    return replica.client().get().uri("/item").retrieve().body(String.class);
                });
            } catch (LinkageError expected) {
                errors++;
            }
        }

        assertThat(errors).isPositive();
        assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.HALF_OPEN);
        assertThat(breaker.tryAcquirePermission())
                .as("both trial permissions are back")
                .isTrue();
        assertThat(breaker.tryAcquirePermission()).isTrue();
    }

    @Test
    void withEveryReadinessProbeUnansweredCallsStillGoToAReplica() {
        // Probes are bounded by the health interval (500 ms): these go unanswered, as on a starved machine.
        FIRST.readinessDelayMillis = 1_500;
        SECOND.readinessDelayMillis = 1_500;
        await().atMost(Duration.ofSeconds(20))
                .until(() -> clients.admitted("plain").isEmpty());
        assertThat(clients.lastResorts("plain")).containsExactlyInAnyOrder(FIRST.uri(), SECOND.uri());
        double before = lastResorts("plain");
        int served = FIRST.served.get() + SECOND.served.get();

        for (int i = 0; i < 4; i++) {
            assertThat(get("plain", CallSafety.NOT_IDEMPOTENT)).startsWith("port ");
        }

        assertThat(FIRST.served.get() + SECOND.served.get() - served).isEqualTo(4);
        assertThat(lastResorts("plain") - before).isEqualTo(4);
    }

    @Test
    void withEveryProbeUnansweredACallWaitsOnOneUnansweringReplicaAtMost() {
        // Frozen replicas: neither their probes (bounded by the 500 ms interval) nor calls (1 s timeout) are answered.
        for (ReplicaServer replica : List.of(FIRST, SECOND)) {
            replica.readinessDelayMillis = 1_500;
            replica.answerDelayMillis = 1_500;
        }
        await().atMost(Duration.ofSeconds(20))
                .until(() -> clients.admitted("plain").isEmpty());
        double before = lastResorts("plain");

        long started = System.nanoTime();
        assertThatThrownBy(() -> get("plain", CallSafety.IDEMPOTENT))
                .isInstanceOf(ServiceUnavailableException.class)
                .hasMessageContaining("no replica is available");

        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("one attempt's timeout (1 s), not three")
                .isLessThan(Duration.ofMillis(1_900));
        assertThat(lastResorts("plain") - before).isEqualTo(1);
    }

    @Test
    void whenTheOnlyListedReplicaRefusesConnectionsAConfiguredOneLeftOutOfTheListServes() {
        // The live replica's probes go unanswered and its breaker opened, as on a starved machine: only the first is
        // listed, and it is killed before its next health check.
        SECOND.readinessDelayMillis = 1_500;
        for (String service : SERVICES) {
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> clients.admitted(service).equals(List.of(FIRST.uri())));
            clients.of(service).breaker(SECOND.uri()).transitionToOpenState();
        }
        FIRST.stop();
        int served = SECOND.served.get();

        for (String service : SERVICES) {
            assertThat(get(service, CallSafety.IDEMPOTENT)).as(service).isEqualTo("port " + SECOND.port);
        }

        assertThat(SECOND.served.get() - served).isEqualTo(SERVICES.size());
    }

    @Test
    void whenTheHealthCheckAndTheBreakersAllCallTheReplicasDownCallsEndAtOnceIn503() {
        FIRST.readinessDelayMillis = 1_500;
        SECOND.readinessDelayMillis = 1_500;
        await().atMost(Duration.ofSeconds(20))
                .until(() -> clients.admitted("plain").isEmpty());
        for (ReplicaServer replica : List.of(FIRST, SECOND))
            clients.of("plain").breaker(replica.uri()).transitionToOpenState();
        assertThat(clients.lastResorts("plain")).isEmpty();
        int served = FIRST.served.get() + SECOND.served.get();

        long started = System.nanoTime();
        assertThatThrownBy(() -> get("plain", CallSafety.IDEMPOTENT))
                .isInstanceOf(ServiceUnavailableException.class)
                .hasMessageContaining("no replica is available");

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(500));
        assertThat(FIRST.served.get() + SECOND.served.get()).isEqualTo(served);
    }

    @Test
    void aKilledAndRestartedReplicaIsBackInRotationAndNoCallFailsMeanwhile() throws Exception {
        Queue<String> failures = new ConcurrentLinkedQueue<>();
        AtomicInteger calls = new AtomicInteger();
        AtomicBoolean running = new AtomicBoolean(true);
        Thread caller = Thread.ofPlatform().name("last-resort-caller").start(() -> {
            while (running.get()) {
                for (String service : SERVICES) {
                    try {
                        assertThat(get(service, CallSafety.IDEMPOTENT)).startsWith("port ");
                        calls.incrementAndGet();
                    } catch (RuntimeException | AssertionError failed) {
                        failures.add(service + ": " + failed);
                    }
                }
                sleep(5);
            }
        });
        try {
            sleep(300);
            onlySecondListed();
            // The live replica's breaker opens too, as when it lost hedges on a starved machine while the
            // killed one was being left out.
            for (String service : SERVICES)
                clients.of(service).breaker(SECOND.uri()).transitionToOpenState();
            sleep(1_500);
            FIRST.restart();
            int servedAtRestart = FIRST.served.get();

            await().atMost(Duration.ofSeconds(20)).until(() -> FIRST.served.get() > servedAtRestart + 10);
            for (String service : SERVICES) {
                await().atMost(Duration.ofSeconds(20))
                        .until(() ->
                                clients.of(service).breaker(FIRST.uri()).getState() == CircuitBreaker.State.CLOSED);
            }
        } finally {
            running.set(false);
            caller.join(10_000);
        }

        assertThat(failures).as("calls that failed while a replica was up").isEmpty();
        assertThat(calls.get()).isGreaterThan(50);
        for (String service : SERVICES) {
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> clients.admitted(service).size() == 2);
        }
    }

    private static void sleep(long millis) {
        if (millis <= 0) return;
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
