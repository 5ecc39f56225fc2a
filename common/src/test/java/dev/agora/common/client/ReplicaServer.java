package dev.agora.common.client;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * A replica for the replica-call tests: a small JDK HTTP server on loopback (an ephemeral port, kept across a stop
 * and a restart, so a stopped replica refuses connections like a killed one) that answers {@code /readyz} and any
 * other path as its test sets, counting the calls it answered. Shared by the client tests ({@code LoadBalancedClientsTest},
 * {@code ReplicaRetriesTest}, {@code LastResortTest}).
 */
final class ReplicaServer {

    /** How calls other than {@code /readyz} are answered. */
    enum Mode {
        /** 200 with {@code port <port>}. */
        OK,
        /** 500. */
        ERROR,
        /** 200, after 4 s: past every test client's timeout. */
        HANG,
        /** 404. */
        NOT_FOUND,
        /** 503 problem+json of type not-applied, as a standby answers. */
        NOT_APPLIED
    }

    final int port;
    /** Calls other than {@code /readyz} answered, hung ones left out. */
    final AtomicInteger served = new AtomicInteger();
    /** Calls other than {@code /readyz} being answered now, hung and delayed ones included. */
    private final AtomicInteger answering = new AtomicInteger();

    volatile Mode mode = Mode.OK;
    /** The status {@code /readyz} answers. */
    volatile int readiness = 200;
    /** How long {@code /readyz} takes to answer, e.g. past the health check's bound, as on a starved machine. */
    volatile long readinessDelayMillis;
    /** How long any other call takes before it is answered. */
    volatile long answerDelayMillis;

    private HttpServer server;

    ReplicaServer() {
        server = start(0);
        port = server.getAddress().getPort();
    }

    /** Back to answering at once with 200 everywhere, started if it was stopped. */
    void reset() {
        mode = Mode.OK;
        readiness = 200;
        readinessDelayMillis = 0;
        answerDelayMillis = 0;
        restart();
    }

    /** Stops listening: connections are refused until {@link #restart}. */
    synchronized void stop() {
        if (server != null) server.stop(0);
        server = null;
    }

    /** Listens again on its port. */
    synchronized void restart() {
        if (server == null) server = start(port);
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** Lists {@code replicas}, in order, as the instances of {@code service} in Spring Cloud's simple discovery. */
    static void list(DynamicPropertyRegistry registry, String service, List<ReplicaServer> replicas) {
        for (int i = 0; i < replicas.size(); i++) {
            String uri = replicas.get(i).uri().toString();
            registry.add("spring.cloud.discovery.client.simple.instances." + service + "[" + i + "].uri", () -> uri);
        }
    }

    /** This replica's breaker among the replica breakers of {@code service}. */
    CircuitBreaker breaker(CircuitBreakerRegistry breakers, String service) {
        return breakers.circuitBreaker(service + "@127.0.0.1:" + port, service);
    }

    /** What an OK call answers. */
    String answer() {
        return "port " + port;
    }

    private HttpServer start(int onPort) {
        HttpServer created;
        try {
            created = HttpServer.create(new InetSocketAddress("127.0.0.1", onPort), 50);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        created.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        created.createContext("/readyz", exchange -> {
            sleep(readinessDelayMillis);
            exchange.sendResponseHeaders(readiness, -1);
            exchange.close();
        });
        created.createContext("/", exchange -> {
            answering.incrementAndGet();
            try {
                answer(exchange, created.getAddress().getPort());
            } finally {
                answering.decrementAndGet();
            }
        });
        created.start();
        return created;
    }

    private void answer(HttpExchange exchange, int onPort) throws IOException {
        sleep(answerDelayMillis);
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
                        : "port " + onPort)
                .getBytes(StandardCharsets.UTF_8);
        if (now == Mode.NOT_APPLIED) exchange.getResponseHeaders().set("Content-Type", "application/problem+json");
        // A hung call answers seconds later, when its test has given up on it and the next one is counting.
        if (now != Mode.HANG) served.incrementAndGet();
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    /**
     * Whether no call is being answered. A call its client gave up on (a timed-out attempt) is still answered, and
     * counted in {@link #served}, when the replica's delay is over: a test that counts calls waits for this first, so
     * that the calls of the test before it are not counted in its own.
     */
    boolean idle() {
        return answering.get() == 0;
    }

    static void sleep(long millis) {
        if (millis <= 0) return;
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
