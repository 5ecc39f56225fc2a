package dev.agora.common.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestClient;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * The failover loop against real HTTP replicas on loopback (small JDK servers whose behaviour each test
 * sets: answer, fail with 5xx, hang past the read timeout, or not listen at all).
 */
class FailoverClientTest {

    private static final String SERVICE = "books";
    private static final long SLOW_ANSWER_MILLIS = 250;

    /** One replica: counts the calls it answered and behaves as told. */
    static final class Replica {
        enum Mode {
            OK,
            ERROR,
            HANG,
            NOT_FOUND,
            /** Sends the status and part of the body, then closes: a replica killed while answering. */
            CUT_OFF,
            /** Answers, but only after {@link #SLOW_ANSWER_MILLIS}: longer than the hedging tests' hedge delay. */
            SLOW
        }

        final HttpServer server;
        final AtomicInteger served = new AtomicInteger();
        volatile Mode mode = Mode.OK;
        volatile int healthStatus = 200;

        Replica() throws IOException {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
            server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            server.createContext("/actuator/health/readiness", exchange -> {
                exchange.sendResponseHeaders(healthStatus, -1);
                exchange.close();
            });
            server.createContext("/", exchange -> {
                Mode now = mode;
                if (now == Mode.HANG) sleep(4_000);
                if (now == Mode.SLOW) sleep(SLOW_ANSWER_MILLIS);
                int status =
                        switch (now) {
                            case OK, HANG, CUT_OFF, SLOW -> 200;
                            case ERROR -> 500;
                            case NOT_FOUND -> 404;
                        };
                byte[] body = ("port " + server.getAddress().getPort()).getBytes(StandardCharsets.UTF_8);
                served.incrementAndGet();
                if (now == Mode.CUT_OFF) {
                    exchange.sendResponseHeaders(status, body.length + 100L);
                    exchange.getResponseBody().write(body);
                    exchange.getResponseBody().flush();
                    try {
                        exchange.getResponseBody().close();
                    } catch (IOException shortOfTheAnnouncedLength) {
                        // expected: the connection is closed with the body incomplete
                    }
                    return;
                }
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

    private final List<Replica> replicas = new ArrayList<>();
    private final List<URI> uris = new ArrayList<>();
    // Generous: the test shares a busy two-core machine, and only the hanging replica may time out. No
    // hedging here: these tests are about the sequential failover loop; the hedging tests set their own.
    private final FailoverSettings settings = FailoverSettings.defaults()
            .withTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ZERO, Duration.ofSeconds(10))
            .withHealth(Duration.ofSeconds(1), Duration.ofSeconds(2), "/actuator/health/readiness")
            .withMaxConnections(50);
    private final FailoverSettings hedging = settings.withTimeouts(
            Duration.ofSeconds(1), Duration.ofSeconds(3), Duration.ofMillis(100), Duration.ofSeconds(10));
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private FailoverClient client;
    private CloseableHttpClient http;

    @AfterEach
    void stop() throws IOException {
        replicas.forEach(r -> r.server.stop(0));
        if (http != null) http.close();
    }

    private void start(int count, FailoverSettings with) throws IOException {
        for (int i = 0; i < count; i++) {
            Replica replica = new Replica();
            replicas.add(replica);
            uris.add(replica.uri());
        }
        var connections = PoolingHttpClientConnectionManagerBuilder.create()
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(with.connectTimeout()))
                        .setSocketTimeout(Timeout.of(with.readTimeout()))
                        .build())
                .setMaxConnPerRoute(with.maxConnections())
                .build();
        http = HttpClients.custom()
                .setConnectionManager(connections)
                .disableAutomaticRetries()
                .build();
        client = new FailoverClient(
                RestClient.builder(), new AbortableRequestFactory(http), service -> List.copyOf(uris), with, meters);
    }

    private String get(CallSafety safety) {
        return client.call(
                SERVICE,
                safety,
                replica -> replica.client().get().uri("/books/1").retrieve().body(String.class));
    }

    @Test
    void roundRobinSpreadsCallsOverTheReplicas() throws IOException {
        start(2, settings);
        for (int i = 0; i < 10; i++) get(CallSafety.IDEMPOTENT);
        assertThat(replicas.get(0).served.get()).isEqualTo(5);
        assertThat(replicas.get(1).served.get()).isEqualTo(5);
    }

    @Test
    void aReplicaThatDoesNotListenCostsNoCallAndIsEjected() throws IOException {
        start(1, settings);
        uris.addFirst(URI.create("http://127.0.0.1:" + closedPort()));
        for (int i = 0; i < 6; i++) assertThat(get(CallSafety.NOT_IDEMPOTENT)).startsWith("port");

        assertThat(client.instances(SERVICE).getFirst().admitted()).isFalse();
        assertThat(replicas.getFirst().served.get()).isEqualTo(6);
    }

    @Test
    void aHangingReplicaIsLeftAfterOneReadTimeoutAndTheCallRepeatedElsewhere() throws IOException {
        start(2, settings);
        replicas.get(0).mode = Replica.Mode.HANG;
        for (int i = 0; i < 6; i++) assertThat(get(CallSafety.IDEMPOTENT)).startsWith("port");

        assertThat(client.instances(SERVICE).get(0).admitted()).isFalse();
        assertThat(replicas.get(1).served.get()).isEqualTo(6);
    }

    @Test
    void aCallThatMayHaveBeenDeliveredIsNotRepeatedUnlessIdempotent() throws IOException {
        start(2, settings);
        replicas.get(0).mode = Replica.Mode.HANG;
        replicas.get(1).mode = Replica.Mode.HANG;

        assertThatThrownBy(() -> get(CallSafety.NOT_IDEMPOTENT))
                .isInstanceOf(ServiceUnavailableException.class)
                .hasMessageContaining("outcome is unknown");
    }

    @Test
    void anAnswerCutOffBeforeItsEndIsRepeatedElsewhere() throws IOException {
        for (FailoverSettings with : List.of(settings, hedging)) {
            start(2, with);
            replicas.get(0).mode = Replica.Mode.CUT_OFF;
            for (int i = 0; i < 4; i++) assertThat(get(CallSafety.IDEMPOTENT)).startsWith("port");

            assertThat(replicas.get(0).served.get())
                    .as("the cut-off replica was called")
                    .isPositive();
            assertThat(replicas.get(1).served.get()).isEqualTo(4);
            stop();
            replicas.clear();
            uris.clear();
        }
    }

    @Test
    void anAnswerCutOffBeforeItsEndIsNotRepeatedUnlessIdempotent() throws IOException {
        start(1, settings);
        replicas.getFirst().mode = Replica.Mode.CUT_OFF;

        assertThatThrownBy(() -> get(CallSafety.NOT_IDEMPOTENT))
                .isInstanceOf(ServiceUnavailableException.class)
                .hasMessageContaining("outcome is unknown");
    }

    @Test
    void serverErrorsAreRepeatedElsewhereAndEjectAfterARun() throws IOException {
        start(2, settings);
        replicas.get(0).mode = Replica.Mode.ERROR;
        for (int i = 0; i < 10; i++) assertThat(get(CallSafety.IDEMPOTENT)).startsWith("port");

        assertThat(client.instances(SERVICE).get(0).admitted()).isFalse();
    }

    @Test
    void clientErrorsPassToTheCallerWithoutFailover() throws IOException {
        start(2, settings);
        replicas.forEach(r -> r.mode = Replica.Mode.NOT_FOUND);

        assertThatThrownBy(() -> get(CallSafety.IDEMPOTENT)).isInstanceOf(HttpClientErrorException.NotFound.class);
        assertThat(replicas.get(0).served.get() + replicas.get(1).served.get()).isEqualTo(1);
        assertThat(client.instances(SERVICE)).allMatch(Instance::admitted);
    }

    @Test
    void withNoReplicaLeftCallsEndAtOnceIn503() throws IOException {
        start(0, settings);
        uris.add(URI.create("http://127.0.0.1:" + closedPort()));
        uris.add(URI.create("http://127.0.0.1:" + closedPort()));
        assertThatThrownBy(() -> get(CallSafety.IDEMPOTENT)).isInstanceOf(ServiceUnavailableException.class);

        long started = System.nanoTime();
        assertThatThrownBy(() -> get(CallSafety.IDEMPOTENT)).isInstanceOf(ServiceUnavailableException.class);
        assertThat(client.instances(SERVICE)).noneMatch(Instance::admitted);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("no hang").isLessThan(Duration.ofSeconds(1));
    }

    @Test
    void probesEjectARefusingReplicaAndReadmitOneThatIsReadyAgain() throws IOException {
        start(2, settings);
        Replica flaky = replicas.get(0);
        flaky.mode = Replica.Mode.HANG;
        get(CallSafety.IDEMPOTENT); // ejects it by read timeout
        assertThat(client.instances(SERVICE).get(0).admitted()).isFalse();

        flaky.mode = Replica.Mode.OK;
        try (HealthProber prober = new HealthProber(client)) {
            prober.probeRound();
        }

        assertThat(client.instances(SERVICE).get(0).admitted()).isTrue();
        flaky.served.set(0);
        for (int i = 0; i < 4; i++) get(CallSafety.IDEMPOTENT);
        assertThat(flaky.served.get()).isEqualTo(2);
    }

    @Test
    void notReadyReplicasAreEjectedAfterARunOfFailedProbes() throws IOException {
        start(2, settings);
        replicas.get(1).healthStatus = 503;
        client.instances(SERVICE); // registers the service, so probes cover it before its first call
        try (HealthProber prober = new HealthProber(client)) {
            prober.probeRound();
            assertThat(client.instances(SERVICE).get(1).admitted()).isTrue();
            prober.probeRound();
        }
        assertThat(client.instances(SERVICE).get(1).admitted()).isFalse();
        for (int i = 0; i < 4; i++) get(CallSafety.IDEMPOTENT);
        assertThat(replicas.get(1).served.get()).isZero();
    }

    @Test
    void aProbeThatStartedBeforeTheEjectionDoesNotReadmit() {
        Instance instance = new Instance(SERVICE, URI.create("http://127.0.0.1:1"), null);
        long probeStarted = System.nanoTime();
        instance.eject(probeStarted + 1);

        assertThat(instance.probePassed(probeStarted)).isFalse();
        assertThat(instance.admitted()).isFalse();
        assertThat(instance.probePassed(probeStarted + 2)).isTrue();
        assertThat(instance.admitted()).isTrue();
    }

    @Test
    void leastOutstandingPicksTheReplicaWithFewestCallsInFlight() {
        Instance busy = new Instance(SERVICE, URI.create("http://127.0.0.1:1"), null);
        Instance idle = new Instance(SERVICE, URI.create("http://127.0.0.1:2"), null);
        busy.callStarted();
        for (int turn = 0; turn < 4; turn++) {
            assertThat(BalancingPolicy.LEAST_OUTSTANDING.pick(List.of(busy, idle), turn))
                    .isSameAs(idle);
        }
        idle.callStarted();
        assertThat(BalancingPolicy.LEAST_OUTSTANDING.pick(List.of(busy, idle), 0))
                .isSameAs(busy);
        assertThat(BalancingPolicy.LEAST_OUTSTANDING.pick(List.of(busy, idle), 1))
                .isSameAs(idle);
    }

    @Test
    void aHangingReplicaCostsIdempotentCallsTheHedgeDelayAndIsEjectedAsFrozen() throws IOException {
        start(2, hedging);
        replicas.get(0).mode = Replica.Mode.HANG;
        long slowest = 0;
        for (int i = 0; i < 6; i++) {
            long started = System.nanoTime();
            assertThat(get(CallSafety.IDEMPOTENT)).startsWith("port");
            slowest = Math.max(slowest, System.nanoTime() - started);
        }

        assertThat(Duration.ofNanos(slowest))
                .as("the hedge answered and aborted the caller's attempt, which would have waited for the read timeout")
                .isLessThan(Duration.ofMillis(1500));
        assertThat(client.instances(SERVICE).get(0).admitted())
                .as("ejected after losing hedges")
                .isFalse();
        assertThat(replicas.get(1).served.get()).isEqualTo(6);
    }

    @Test
    void aHedgedCallAnsweredWithinTheHedgeDelayRunsOnTheCallersThread() throws IOException {
        start(2, hedging);
        List<Thread> ranOn = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            client.call(SERVICE, CallSafety.IDEMPOTENT, replica -> {
                ranOn.add(Thread.currentThread());
                return replica.client().get().uri("/books/1").retrieve().body(String.class);
            });
        }
        assertThat(ranOn).as("no hand-off to a pooled thread").containsOnly(Thread.currentThread());
        assertThat(meters.counter("agora.client.hedges", "service", SERVICE).count())
                .isZero();
    }

    @Test
    void hedgesStayWithinTheirBudgetWhenEveryReplicaIsSlow() throws Exception {
        start(2, hedging.withHedgeBudget(10, 2));
        replicas.forEach(replica -> replica.mode = Replica.Mode.SLOW);
        int callers = 6;
        int callsEach = 5;
        List<Thread> threads = new ArrayList<>();
        AtomicInteger answered = new AtomicInteger();
        for (int c = 0; c < callers; c++) {
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < callsEach; i++) {
                    if (get(CallSafety.IDEMPOTENT).startsWith("port")) answered.incrementAndGet();
                }
            }));
        }
        for (Thread thread : threads) thread.join();

        int calls = callers * callsEach;
        double hedges =
                meters.counter("agora.client.hedges", "service", SERVICE).count();
        double denied =
                meters.counter("agora.client.hedges.denied", "service", SERVICE).count();
        assertThat(answered.get()).isEqualTo(calls);
        assertThat(hedges + denied)
                .as("every call outlasted the hedge delay and asked for a hedge")
                .isEqualTo(calls);
        // 2 at the start, and a tenth of a hedge per answered attempt (at most calls + hedges of them)
        assertThat(hedges).isLessThanOrEqualTo(2 + (calls + hedges) / 10);
        assertThat(client.instances(SERVICE)).allMatch(Instance::admitted);
    }

    @Test
    void theLastAdmittedReplicaIsNeverEjectedForLosingHedges() {
        Instance only = new Instance(SERVICE, URI.create("http://127.0.0.1:1"), null);
        for (int i = 0; i < 5; i++)
            assertThat(only.overtaken(2, false, System.nanoTime())).isFalse();
        assertThat(only.admitted()).isTrue();
        assertThat(only.overtaken(2, true, System.nanoTime())).isTrue();
        assertThat(only.admitted()).isFalse();
    }

    @Test
    void aReplicaEjectedForATimeoutIsStillTriedWhenNoOtherIsLeft() throws IOException {
        start(1, settings);
        Replica only = replicas.getFirst();
        only.mode = Replica.Mode.HANG;
        assertThatThrownBy(() -> get(CallSafety.IDEMPOTENT)).isInstanceOf(ServiceUnavailableException.class);
        assertThat(client.instances(SERVICE).getFirst().admitted()).isFalse();

        only.mode = Replica.Mode.OK;
        assertThat(get(CallSafety.IDEMPOTENT))
                .as("a slow replica is tried rather than a 503 at once")
                .startsWith("port");
    }

    @Test
    void theCallTimeoutBoundsACallWhoseReplicasAllHang() throws IOException {
        start(
                2,
                settings.withTimeouts(
                        Duration.ofSeconds(1), Duration.ofSeconds(3), Duration.ofMillis(100), Duration.ofMillis(600)));
        replicas.forEach(r -> r.mode = Replica.Mode.HANG);
        long started = System.nanoTime();
        assertThatThrownBy(() -> get(CallSafety.IDEMPOTENT)).isInstanceOf(ServiceUnavailableException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(2500));
    }

    @Test
    void aHedgedCallPassesAClientErrorOn() throws IOException {
        start(2, hedging);
        replicas.forEach(r -> r.mode = Replica.Mode.NOT_FOUND);
        assertThatThrownBy(() -> get(CallSafety.IDEMPOTENT)).isInstanceOf(HttpClientErrorException.NotFound.class);
        assertThat(client.instances(SERVICE)).allMatch(Instance::admitted);
    }

    @Test
    void theResponseOfTheRequestBeingHandledNamesEveryRetryAndHedge() throws IOException {
        start(2, hedging);
        MockHttpServletResponse response = new MockHttpServletResponse();
        RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(new MockHttpServletRequest(), response));
        try {
            get(CallSafety.IDEMPOTENT);
            assertThat(response.getHeaders(FailoverNotice.HEADER))
                    .as("untouched")
                    .isEmpty();

            replicas.get(0).mode = Replica.Mode.HANG;
            uris.add(URI.create("http://127.0.0.1:" + closedPort()));
            client.refreshInstanceLists();
            for (int i = 0; i < 6; i++) get(CallSafety.IDEMPOTENT);
        } finally {
            RequestContextHolder.resetRequestAttributes();
        }

        List<String> entries = response.getHeaders(FailoverNotice.HEADER);
        assertThat(entries)
                .anyMatch(entry -> entry.matches(Pattern.quote(SERVICE) + ";retry;cause=connect;after=\\d+\\.\\d{3}"))
                .anyMatch(entry -> entry.matches(Pattern.quote(SERVICE) + ";hedge;after=\\d+\\.\\d{3}"))
                .allMatch(
                        entry -> entry.matches(Pattern.quote(SERVICE) + ";(retry;cause=[a-z_]+|hedge);after=[0-9.]+"));
        assertThat(entries.stream()
                        .filter(entry -> entry.contains(";hedge;"))
                        .map(entry -> Double.parseDouble(entry.substring(entry.indexOf("after=") + 6))))
                .as("a hedge starts no earlier than the hedge delay's floor (ms) after the call")
                .allMatch(after -> after >= hedging.hedgeFloor().toNanos() / 1e6);
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
