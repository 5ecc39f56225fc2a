package dev.agora.launcher.credentials;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The token client against a real HTTP server standing in for the frontend's token endpoint. */
class AccessTokensTest {

    private final TokenEndpoint endpoint = new TokenEndpoint();

    @AfterEach
    void stop() {
        endpoint.close();
    }

    @Test
    void asksWithHttpBasicAndTheClientCredentialsGrantAndSendsTheTokenAsBearer() {
        Credentials credentials = endpoint.credentials();
        try (AccessTokens tokens = new AccessTokens(credentials)) {
            assertThat(tokens.authorization(AccessTokens.User.CUSTOMER)).isEqualTo("Bearer token-1-demo-customer");
            assertThat(tokens.accessToken(AccessTokens.User.ADMIN)).isEqualTo("token-2-demo-admin");
        }
        TokenEndpoint.Request first = endpoint.requests.peek();
        assertThat(first.basic())
                .isEqualTo("demo-customer:" + credentials.customer().secret());
        assertThat(first.contentType()).isEqualTo("application/x-www-form-urlencoded");
        assertThat(first.body()).isEqualTo("grant_type=client_credentials");
    }

    @Test
    void fetchesEachUsersTokenOnceForEveryThread() throws InterruptedException {
        try (AccessTokens tokens = new AccessTokens(endpoint.credentials())) {
            int threads = 16;
            CountDownLatch start = new CountDownLatch(1);
            Queue<String> seen = new ConcurrentLinkedQueue<>();
            List<Thread> callers = java.util.stream.IntStream.range(0, threads)
                    .mapToObj(i -> Thread.ofVirtual().start(() -> {
                        try {
                            start.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        for (int n = 0; n < 100; n++) seen.add(tokens.accessToken(AccessTokens.User.CUSTOMER));
                    }))
                    .toList();
            start.countDown();
            for (Thread caller : callers) caller.join();

            assertThat(seen).hasSize(threads * 100).containsOnly("token-1-demo-customer");
            assertThat(endpoint.issued.get()).isEqualTo(1);
        }
    }

    @Test
    void aTokenNearItsExpiryIsReplacedInTheBackgroundWhileStillUsed() throws InterruptedException {
        endpoint.lifetimeSeconds = 6; // refreshed halfway (3 s), unusable after 5.4 s
        try (AccessTokens tokens = new AccessTokens(endpoint.credentials())) {
            assertThat(tokens.accessToken(AccessTokens.User.TRADER)).isEqualTo("token-1-demo-trader");
            Thread.sleep(3_300);
            endpoint.delayMillis = 300;
            long started = System.nanoTime();
            assertThat(tokens.accessToken(AccessTokens.User.TRADER))
                    .as("the old token, still good, without waiting for the new one")
                    .isEqualTo("token-1-demo-trader");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(250));
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (!tokens.accessToken(AccessTokens.User.TRADER).equals("token-2-demo-trader")
                    && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(tokens.accessToken(AccessTokens.User.TRADER)).isEqualTo("token-2-demo-trader");
            assertThat(endpoint.issued.get()).isEqualTo(2);
        }
    }

    @Test
    void aRefusedTokenRequestSaysWhoWasRefusedAndWhy() {
        endpoint.status = 401;
        try (AccessTokens tokens = new AccessTokens(endpoint.credentials())) {
            assertThatThrownBy(() -> tokens.authorization(AccessTokens.User.ADMIN))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("demo-admin")
                    .hasMessageContaining("401")
                    .hasMessageContaining("invalid_client");
        }
    }

    /** {@code POST /oauth2/token}: a token named after the request count and the client. */
    private static final class TokenEndpoint implements AutoCloseable {

        record Request(String basic, String contentType, String body) {}

        final Queue<Request> requests = new ConcurrentLinkedQueue<>();
        final AtomicInteger issued = new AtomicInteger();
        volatile int status = 200;
        volatile long lifetimeSeconds = 899;
        volatile long delayMillis;
        private final HttpServer server;
        private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();

        TokenEndpoint() {
            try {
                server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            server.setExecutor(executor);
            server.createContext("/oauth2/token", this::answer);
            server.start();
        }

        Credentials credentials() {
            return Credentials.generate(
                    URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/oauth2/token"));
        }

        private void answer(HttpExchange exchange) throws IOException {
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            String basic = new String(
                    Base64.getDecoder().decode(authorization.substring("Basic ".length())), StandardCharsets.UTF_8);
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            requests.add(new Request(basic, exchange.getRequestHeaders().getFirst("Content-Type"), body));
            if (delayMillis > 0) {
                try {
                    Thread.sleep(delayMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            String reply = status == 200
                    ? "{\"access_token\":\"token-" + issued.incrementAndGet() + "-"
                            + basic.substring(0, basic.indexOf(':'))
                            + "\",\"token_type\":\"Bearer\",\"expires_in\":" + lifetimeSeconds + "}"
                    : "{\"error\":\"invalid_client\"}";
            byte[] bytes = reply.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        }

        @Override
        public void close() {
            server.stop(0);
            executor.shutdownNow();
        }
    }
}
