package dev.agora.common.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.agora.common.CommonTestApplication;
import dev.agora.common.security.testing.TestIssuer;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Replica calls through the real stack (Spring Cloud LoadBalancer's health-checked round robin, Resilience4j's
 * retry, breakers and bulkhead, the hedging class) against real HTTP replicas on loopback: small JDK servers whose
 * behaviour each test sets (answer, fail with 5xx, hang past the timeout, answer 404, fail their readiness), and an
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
            "agora.clients.leader.retry-interval=100ms"
        })
class ReplicaClientsTest {

    /** One replica: counts the calls it answered and behaves as told. */
    static final class Replica {
        enum Mode {
            OK,
            ERROR,
            HANG,
            NOT_FOUND,
            /** 503 problem+json of type not-applied, as a standby answers. */
            NOT_APPLIED
        }

        final HttpServer server;
        final AtomicInteger served = new AtomicInteger();
        volatile Mode mode = Mode.OK;
        volatile int readiness = 200;

        Replica() {
            try {
                server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            server.createContext("/readyz", exchange -> {
                exchange.sendResponseHeaders(readiness, -1);
                exchange.close();
            });
            server.createContext("/", exchange -> {
                Mode now = mode;
                if (now == Mode.HANG) sleep(4_000);
                int status =
                        switch (now) {
                            case OK, HANG -> 200;
                            case ERROR -> 500;
                            case NOT_FOUND -> 404;
                            case NOT_APPLIED -> 503;
                        };
                byte[] body = (now == Mode.NOT_APPLIED
                                ? "{\"type\":\"https://agora.dev/problems/not-applied\",\"status\":503}"
                                : "port " + server.getAddress().getPort())
                        .getBytes(StandardCharsets.UTF_8);
                if (now == Mode.NOT_APPLIED)
                    exchange.getResponseHeaders().set("Content-Type", "application/problem+json");
                served.incrementAndGet();
                exchange.sendResponseHeaders(status, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            server.start();
        }

        URI uri() {
            return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        }
    }

    private static final TestIssuer ISSUER = new TestIssuer();
    private static final List<Replica> REPLICAS = List.of(new Replica(), new Replica());
    private static final String DEAD = "http://127.0.0.1:" + unusedPort();

    @DynamicPropertySource
    static void replicas(DynamicPropertyRegistry registry) {
        registry.add("agora.security.authorities", ISSUER::url);
        for (String service : List.of("books", "hedged", "narrow", "leader")) {
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
        REPLICAS.forEach(r -> r.server.stop(0));
        ISSUER.close();
    }

    @Autowired
    ReplicaClients clients;

    @Autowired
    MeterRegistry meters;

    @BeforeEach
    void everyReplicaHealthyAndAdmitted() {
        RequestContextHolder.resetRequestAttributes();
        for (Replica replica : REPLICAS) {
            replica.mode = Replica.Mode.OK;
            replica.readiness = 200;
        }
        for (String service : List.of("books", "hedged", "narrow")) {
            for (Replica replica : REPLICAS)
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
        REPLICAS.get(0).mode = Replica.Mode.HANG;

        for (int i = 0; i < 4; i++) {
            long started = System.nanoTime();
            assertThat(get("books", CallSafety.IDEMPOTENT)).isEqualTo("port " + port(1));
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(3_500));
        }
    }

    @Test
    void aCallThatMayHaveBeenDeliveredIsNotRepeatedUnlessIdempotent() {
        REPLICAS.get(0).mode = Replica.Mode.ERROR;
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
    void serverErrorsAreRepeatedElsewhereAndEjectTheReplicaAfterARun() {
        REPLICAS.get(0).mode = Replica.Mode.ERROR;

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
        REPLICAS.forEach(r -> r.mode = Replica.Mode.NOT_FOUND);
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
        REPLICAS.get(0).mode = Replica.Mode.NOT_APPLIED;

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
            r.mode = Replica.Mode.NOT_APPLIED;
        });
        await().atMost(Duration.ofSeconds(20))
                .until(() -> clients.admitted("leader").isEmpty());

        long started = System.nanoTime();
        var call = java.util.concurrent.CompletableFuture.supplyAsync(() -> get("leader", CallSafety.NOT_IDEMPOTENT));
        sleep(300);
        assertThat(call).as("still waiting for a replica that serves").isNotDone();
        // The second one takes over; its readiness still says no.
        REPLICAS.get(1).mode = Replica.Mode.OK;

        assertThat(call.get(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("port " + port(1));
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("found within the attempts' 1.4 s of waiting")
                .isLessThan(Duration.ofMillis(3_000));
        assertThat(clients.admitted("leader"))
                .as("its health check has not seen it ready")
                .isEmpty();
    }

    @Test
    void aServiceWithARetryIntervalGivesUpIn503AfterItsAttempts() {
        REPLICAS.forEach(r -> {
            r.readiness = 503;
            r.mode = Replica.Mode.NOT_APPLIED;
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
        REPLICAS.get(0).mode = Replica.Mode.HANG;
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
    void aHedgedCallPassesAClientErrorOn() {
        REPLICAS.forEach(r -> r.mode = Replica.Mode.NOT_FOUND);

        assertThatThrownBy(() -> get("hedged", CallSafety.IDEMPOTENT))
                .isInstanceOf(HttpClientErrorException.NotFound.class);
    }

    @Test
    void theResponseOfTheRequestBeingHandledNamesEveryRetryAndHedge() {
        MockHttpServletResponse response = new MockHttpServletResponse();
        RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(new MockHttpServletRequest(), response));
        try {
            REPLICAS.get(0).mode = Replica.Mode.ERROR;
            for (int i = 0; i < 2; i++) get("books", CallSafety.IDEMPOTENT);
            REPLICAS.get(0).mode = Replica.Mode.HANG;
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
        REPLICAS.forEach(r -> r.mode = Replica.Mode.HANG);
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
        REPLICAS.forEach(r -> r.mode = Replica.Mode.OK);
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
        return REPLICAS.get(replica).server.getAddress().getPort();
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
