package dev.agora.common.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.agora.common.CommonTestApplication;
import dev.agora.common.security.testing.TestIssuer;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.client.observation.ClientRequestObservationContext;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Replica calls through the real stack (Spring Cloud LoadBalancer's health-checked round robin, Resilience4j's
 * retry, breakers and bulkhead, the hedging class) against real HTTP replicas on loopback ({@link ReplicaServer}s)
 * whose behaviour each test sets (answer, fail with 5xx, hang past the timeout, answer 404, fail their readiness), and an
 * address where nothing listens.
 */
@SpringBootTest(
        classes = CommonTestApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = {
            "spring.profiles.active=local",
            "spring.cloud.loadbalancer.health-check.interval=200ms",
            "agora.clients.books.timeout=1s",
            "agora.clients.hedged.timeout=3s",
            "agora.clients.hedged.hedge-after=100ms",
            "agora.clients.narrow.timeout=3s",
            "agora.clients.narrow.max-concurrent-calls=2",
            "agora.clients.with-dead.timeout=1s",
            "agora.clients.leader.timeout=1s",
            "agora.clients.leader.attempts=15",
            "agora.clients.leader.retry-interval=100ms",
            "agora.clients.slow-writes.timeout=300ms",
            "agora.clients.slow-writes.not-idempotent-timeout=3s",
            // configured, never called: its counters must be there all the same
            "agora.clients.idle.timeout=1s"
        })
class ReplicaClientsTest {

    private static final TestIssuer ISSUER = new TestIssuer();
    private static final List<ReplicaServer> REPLICAS = List.of(new ReplicaServer(), new ReplicaServer());
    private static final String DEAD = "http://127.0.0.1:" + unusedPort();

    @DynamicPropertySource
    static void replicas(DynamicPropertyRegistry registry) {
        registry.add("agora.security.authorities", ISSUER::url);
        for (String service : List.of("books", "hedged", "narrow", "leader", "slow-writes")) {
            for (int i = 0; i < REPLICAS.size(); i++) {
                String uri = REPLICAS.get(i).uri().toString();
                registry.add(
                        "spring.cloud.discovery.client.simple.instances." + service + "[" + i + "].uri", () -> uri);
            }
        }
        registry.add(
                "spring.cloud.discovery.client.simple.instances.with-dead[0].uri",
                () -> REPLICAS.getFirst().uri().toString());
        registry.add("spring.cloud.discovery.client.simple.instances.with-dead[1].uri", () -> DEAD);
    }

    @AfterAll
    static void stop() {
        REPLICAS.forEach(ReplicaServer::stop);
        ISSUER.close();
    }

    @Autowired
    ReplicaClients clients;

    @Autowired
    MeterRegistry meters;

    @Autowired
    ObservationRegistry observations;

    @BeforeEach
    void everyReplicaHealthyAndAdmitted() {
        RequestContextHolder.resetRequestAttributes();
        REPLICAS.forEach(ReplicaServer::reset);
        for (String service : List.of("books", "hedged", "narrow", "leader", "slow-writes")) {
            for (ReplicaServer replica : REPLICAS)
                clients.of(service).breaker(replica.uri()).reset();
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> clients.admitted(service).size() == REPLICAS.size());
        }
    }

    private String get(String service, CallSafety safety) {
        return clients.call(
                service,
                safety,
                replica -> replica.client().get().uri("/item").retrieve().body(String.class));
    }

    private int servedTotal() {
        return REPLICAS.stream().mapToInt(r -> r.served.get()).sum();
    }

    @Test
    void roundRobinSpreadsCallsOverTheReplicas() {
        int first = REPLICAS.get(0).served.get();
        int second = REPLICAS.get(1).served.get();

        for (int i = 0; i < 20; i++) get("books", CallSafety.IDEMPOTENT);

        assertThat(REPLICAS.get(0).served.get() - first).isBetween(8, 12);
        assertThat(REPLICAS.get(1).served.get() - second).isBetween(8, 12);
    }

    @Test
    void aReplicaThatDoesNotListenIsLeftOutOfTheChoiceAndFailsNoCall() {
        await().atMost(Duration.ofSeconds(20)).until(() -> clients.admitted("with-dead")
                .equals(List.of(REPLICAS.getFirst().uri())));
        int before = REPLICAS.getFirst().served.get();

        for (int i = 0; i < 10; i++) {
            assertThat(get("with-dead", CallSafety.NOT_IDEMPOTENT)).isEqualTo("port " + port(0));
        }

        assertThat(REPLICAS.getFirst().served.get() - before).isEqualTo(10);
    }

    @Test
    void aHangingReplicaIsLeftAfterOneTimeoutAndTheCallRepeatedElsewhere() {
        REPLICAS.get(0).mode = ReplicaServer.Mode.HANG;

        for (int i = 0; i < 4; i++) {
            long started = System.nanoTime();
            assertThat(get("books", CallSafety.IDEMPOTENT)).isEqualTo("port " + port(1));
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(3_500));
        }
    }

    @Test
    void aCallThatMayHaveBeenDeliveredIsNotRepeatedUnlessIdempotent() {
        REPLICAS.get(0).mode = ReplicaServer.Mode.ERROR;
        int unknown = 0;
        for (int i = 0; i < 6; i++) {
            try {
                assertThat(get("books", CallSafety.NOT_IDEMPOTENT)).isEqualTo("port " + port(1));
            } catch (ServiceUnavailableException outcomeUnknown) {
                unknown++;
                assertThat(outcomeUnknown.getMessage()).contains("outcome is unknown");
            }
        }
        assertThat(unknown).as("calls that met the failing replica first").isPositive();
    }

    @Test
    void aWriteThatCannotBeRepeatedGetsTheAnswerOfAReplicaSlowerThanTheTimeoutOfOtherCalls() {
        // Slower than the service's timeout, faster than its timeout for calls that are not idempotent: a write that
        // is applied and answered late (a cold replica's first write) must be answered as applied, not as unknown.
        REPLICAS.forEach(replica -> replica.answerDelayMillis = 800);
        int before = servedTotal();

        String answer = clients.call(
                "slow-writes",
                CallSafety.NOT_IDEMPOTENT,
                replica -> replica.client().post().uri("/item").retrieve().body(String.class));

        assertThat(answer).startsWith("port ");
        assertThat(servedTotal() - before).as("applied once").isEqualTo(1);
    }

    @Test
    void serverErrorsAreRepeatedElsewhereAndEjectTheReplicaAfterARun() {
        REPLICAS.get(0).mode = ReplicaServer.Mode.ERROR;

        for (int i = 0; i < 20; i++)
            assertThat(get("books", CallSafety.IDEMPOTENT)).isEqualTo("port " + port(1));

        assertThat(clients.of("books").breaker(REPLICAS.get(0).uri()).getState())
                .isEqualTo(CircuitBreaker.State.OPEN);
        assertThat(clients.admitted("books")).containsExactly(REPLICAS.get(1).uri());
        assertThat(meters.counter("agora.client.failovers", "service", "books").count())
                .isPositive();
    }

    @Test
    void clientErrorsPassToTheCallerWithoutFailover() {
        REPLICAS.forEach(r -> r.mode = ReplicaServer.Mode.NOT_FOUND);
        int before = servedTotal();

        assertThatThrownBy(() -> get("books", CallSafety.IDEMPOTENT))
                .isInstanceOf(HttpClientErrorException.NotFound.class);
        assertThat(servedTotal() - before).isEqualTo(1);
    }

    @Test
    void withNoReplicaReadyCallsEndAtOnceIn503() {
        REPLICAS.forEach(r -> r.readiness = 503);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> clients.admitted("books").isEmpty());
        int before = servedTotal();

        long started = System.nanoTime();
        assertThatThrownBy(() -> get("books", CallSafety.IDEMPOTENT))
                .isInstanceOf(ServiceUnavailableException.class)
                .hasMessageContaining("no replica is available");

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(500));
        assertThat(servedTotal()).isEqualTo(before);
    }

    @Test
    void aRefusalThatAppliedNothingIsRepeatedElsewhereEvenWhenNotIdempotent() {
        REPLICAS.get(0).mode = ReplicaServer.Mode.NOT_APPLIED;

        for (int i = 0; i < 10; i++) {
            assertThat(get("books", CallSafety.NOT_IDEMPOTENT)).isEqualTo("port " + port(1));
        }

        assertThat(clients.of("books").breaker(REPLICAS.get(0).uri()).getState())
                .as("a replica that answers refusals is up: its health checks decide, not its breaker")
                .isEqualTo(CircuitBreaker.State.CLOSED);
    }

    @Test
    void aServiceWithARetryIntervalFindsTheReplicaThatServesByCallingBeforeItsHealthCheckSaysSo() throws Exception {
        // Both stand by: not ready, and every call refused with nothing applied.
        REPLICAS.forEach(r -> {
            r.readiness = 503;
            r.mode = ReplicaServer.Mode.NOT_APPLIED;
        });
        await().atMost(Duration.ofSeconds(20))
                .until(() -> clients.admitted("leader").isEmpty());

        double fallbacksBefore =
                meters.counter("agora.client.last.resorts", "service", "leader").count();
        long started = System.nanoTime();
        var call = java.util.concurrent.CompletableFuture.supplyAsync(() -> get("leader", CallSafety.NOT_IDEMPOTENT));
        sleep(300);
        assertThat(call).as("still waiting for a replica that serves").isNotDone();
        // The second one takes over; its readiness still says no.
        REPLICAS.get(1).mode = ReplicaServer.Mode.OK;

        assertThat(call.get(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("port " + port(1));
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("found within the attempts' 1.4 s of waiting")
                .isLessThan(Duration.ofMillis(3_000));
        assertThat(clients.admitted("leader"))
                .as("its health check has not seen it ready")
                .isEmpty();
        assertThat(meters.counter("agora.client.last.resorts", "service", "leader")
                        .count())
                .as("every attempt went by the fallback, to every known replica in turn")
                .isGreaterThan(fallbacksBefore + 1);
    }

    @Test
    void aServiceThatWaitsForReplicasFallsBackToTheHealthCheckedOneWhateverItsBreakerSays() {
        // The first one serves and passes its health check, but its breaker was opened (an attempt timed out on a
        // starved machine); the second stands by, its breaker open too.
        REPLICAS.get(1).mode = ReplicaServer.Mode.NOT_APPLIED;
        REPLICAS.get(1).readiness = 503;
        await().atMost(Duration.ofSeconds(20)).until(() -> clients.admitted("leader")
                .equals(List.of(REPLICAS.get(0).uri())));
        for (ReplicaServer replica : REPLICAS)
            clients.of("leader").breaker(replica.uri()).transitionToOpenState();
        assertThat(clients.lastResorts("leader"))
                .as("every known replica, breakers deciding at the call; the health-checked one anyway")
                .containsExactlyInAnyOrder(
                        REPLICAS.get(0).uri(), REPLICAS.get(1).uri());
        int refusals = REPLICAS.get(1).served.get();

        long started = System.nanoTime();
        assertThat(get("leader", CallSafety.NOT_IDEMPOTENT)).isEqualTo("port " + port(0));

        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("no waiting for the breaker's 400 ms")
                .isLessThan(Duration.ofMillis(2_000));
        assertThat(REPLICAS.get(1).served.get() - refusals)
                .as("no attempt at the standby")
                .isZero();
        for (ReplicaServer replica : REPLICAS)
            clients.of("leader").breaker(replica.uri()).reset();
    }

    @Test
    void everyCounterOfAClientIsRegisteredBeforeItsFirstCall() {
        for (String name : List.of(
                "agora.client.last.resorts",
                "agora.client.failovers",
                "agora.client.calls.rejected",
                "agora.client.pool.timeouts",
                "agora.client.hedges.denied")) {
            assertThat(meters.find(name).tag("service", "idle").counter())
                    .as(name)
                    .isNotNull()
                    .satisfies(counter -> assertThat(counter.count()).isZero());
        }
    }

    @Test
    void aStandbyThatWasEjectedIsBackInFullOnceItAnswersRefusals() {
        // The second one was killed and restarted as a standby: its breaker opened, and its wait is over.
        REPLICAS.get(1).mode = ReplicaServer.Mode.NOT_APPLIED;
        REPLICAS.get(1).readiness = 503;
        await().atMost(Duration.ofSeconds(20)).until(() -> clients.admitted("leader")
                .equals(List.of(REPLICAS.get(0).uri())));
        CircuitBreaker standby = clients.of("leader").breaker(REPLICAS.get(1).uri());
        standby.transitionToOpenState();
        standby.transitionToHalfOpenState();
        // The leader is lost: every call now falls back to the standby, which refuses until it takes over.
        REPLICAS.get(0).mode = ReplicaServer.Mode.NOT_APPLIED;
        REPLICAS.get(0).readiness = 503;
        await().atMost(Duration.ofSeconds(20))
                .until(() -> clients.admitted("leader").isEmpty());
        int refusals = REPLICAS.get(1).served.get();
        var waiting = CompletableFuture.supplyAsync(() -> get("leader", CallSafety.NOT_IDEMPOTENT));

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(standby.getState())
                .as("its refusals are answers: no longer two trial calls at a time")
                .isEqualTo(CircuitBreaker.State.CLOSED));
        assertThat(REPLICAS.get(1).served.get() - refusals).isGreaterThanOrEqualTo(2);
        // It takes over.
        REPLICAS.get(1).mode = ReplicaServer.Mode.OK;
        assertThat(get("leader", CallSafety.NOT_IDEMPOTENT)).isEqualTo("port " + port(1));
        waiting.handle((answer, gaveUp) -> answer).join();
    }

    @Test
    void aServiceWithARetryIntervalGivesUpIn503AfterItsAttempts() {
        REPLICAS.forEach(r -> {
            r.readiness = 503;
            r.mode = ReplicaServer.Mode.NOT_APPLIED;
        });
        await().atMost(Duration.ofSeconds(20))
                .until(() -> clients.admitted("leader").isEmpty());

        long started = System.nanoTime();
        assertThatThrownBy(() -> get("leader", CallSafety.NOT_IDEMPOTENT))
                .isInstanceOf(ServiceUnavailableException.class);

        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("14 pauses of 100 ms")
                .isBetween(Duration.ofMillis(1_300), Duration.ofMillis(5_000));
    }

    @Test
    void aHangingReplicaCostsIdempotentCallsTheHedgeDelayAndLosesItsPlace() {
        REPLICAS.get(0).mode = ReplicaServer.Mode.HANG;
        double hedgesBefore =
                meters.counter("agora.client.hedges", "service", "hedged").count();

        // Round robin sends about every other call to the hanging replica first: enough of them to fill its
        // breaker's minimum of five calls.
        for (int i = 0; i < 16; i++) {
            long started = System.nanoTime();
            assertThat(get("hedged", CallSafety.IDEMPOTENT)).isEqualTo("port " + port(1));
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .as("hedged after 100 ms instead of the 3 s timeout")
                    .isLessThan(Duration.ofMillis(1_500));
        }

        assertThat(meters.counter("agora.client.hedges", "service", "hedged").count())
                .isGreaterThan(hedgesBefore);
        assertThat(clients.of("hedged").breaker(REPLICAS.get(0).uri()).getState())
                .as("a replica that loses every race is ejected")
                .isEqualTo(CircuitBreaker.State.OPEN);
    }

    @Test
    void aHedgeRunsInTheCallersObservationSoItsRequestJoinsTheCallersTrace() {
        REPLICAS.get(0).mode = ReplicaServer.Mode.HANG;
        List<ClientRequestObservationContext> requests = new CopyOnWriteArrayList<>();
        observations.observationConfig().observationHandler(new ObservationHandler<Observation.Context>() {
            @Override
            public boolean supportsContext(Observation.Context context) {
                return context instanceof ClientRequestObservationContext;
            }

            @Override
            public void onStart(Observation.Context context) {
                var request = (ClientRequestObservationContext) context;
                if (request.getCarrier() != null
                        && request.getCarrier().getURI().getPath().equals("/item")) {
                    requests.add(request);
                }
            }
        });
        double hedgesBefore =
                meters.counter("agora.client.hedges", "service", "hedged").count();

        Observation caller = Observation.start("test.caller", observations);
        try (Observation.Scope scope = caller.openScope()) {
            // Round robin sends every other call to the hanging replica first: those are hedged.
            for (int i = 0; i < 4; i++) {
                assertThat(get("hedged", CallSafety.IDEMPOTENT)).isEqualTo("port " + port(1));
            }
        } finally {
            caller.stop();
        }

        assertThat(meters.counter("agora.client.hedges", "service", "hedged").count())
                .isGreaterThan(hedgesBefore);
        assertThat(requests)
                .as("every attempt's request, the hedges' (on hedge threads) too, is a child of the caller's")
                .hasSizeGreaterThanOrEqualTo(5)
                .allSatisfy(
                        request -> assertThat(request.getParentObservation()).isSameAs(caller));
    }

    @Test
    void aHedgedCallPassesAClientErrorOn() {
        REPLICAS.forEach(r -> r.mode = ReplicaServer.Mode.NOT_FOUND);

        assertThatThrownBy(() -> get("hedged", CallSafety.IDEMPOTENT))
                .isInstanceOf(HttpClientErrorException.NotFound.class);
    }

    @Test
    void theResponseOfTheRequestBeingHandledNamesEveryRetryAndHedge() {
        MockHttpServletResponse response = new MockHttpServletResponse();
        RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(new MockHttpServletRequest(), response));
        try {
            REPLICAS.get(0).mode = ReplicaServer.Mode.ERROR;
            for (int i = 0; i < 2; i++) get("books", CallSafety.IDEMPOTENT);
            REPLICAS.get(0).mode = ReplicaServer.Mode.HANG;
            for (int i = 0; i < 2; i++) get("hedged", CallSafety.IDEMPOTENT);
        } finally {
            RequestContextHolder.resetRequestAttributes();
        }

        assertThat(response.getHeaders(FailoverNotice.HEADER))
                .anyMatch(entry -> entry.matches("books;retry;cause=server_error;after=\\d+\\.\\d{3}"))
                .anyMatch(entry -> entry.matches("hedged;hedge;after=\\d+\\.\\d{3}"));
    }

    @Test
    void callsBeyondTheBulkheadAreRefusedAtOnceIn503() throws Exception {
        REPLICAS.forEach(r -> r.mode = ReplicaServer.Mode.HANG);
        double rejectedBefore = meters.counter("agora.client.calls.rejected", "service", "narrow")
                .count();
        List<CompletableFuture<String>> hanging = new ArrayList<>();
        var callers = Executors.newFixedThreadPool(2);
        for (int i = 0; i < 2; i++) {
            hanging.add(CompletableFuture.supplyAsync(() -> get("narrow", CallSafety.IDEMPOTENT), callers));
        }
        await().atMost(Duration.ofSeconds(5))
                .until(() -> meters.get("resilience4j.bulkhead.available.concurrent.calls")
                                .tag("name", "narrow")
                                .gauge()
                                .value()
                        == 0);

        long started = System.nanoTime();
        assertThatThrownBy(() -> get("narrow", CallSafety.IDEMPOTENT))
                .isInstanceOf(ServiceUnavailableException.class)
                .hasMessageContaining("too many calls in flight");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(500));
        assertThat(meters.counter("agora.client.calls.rejected", "service", "narrow")
                        .count())
                .isEqualTo(rejectedBefore + 1);
        REPLICAS.forEach(r -> r.mode = ReplicaServer.Mode.OK);
        for (CompletableFuture<String> call : hanging) {
            try {
                call.join();
            } catch (RuntimeException failedWithEveryReplicaHanging) {
                // both replicas hung: these may end in 503 after their timeouts
            }
        }
        callers.shutdownNow();
    }

    private static int port(int replica) {
        return REPLICAS.get(replica).port;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static int unusedPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
