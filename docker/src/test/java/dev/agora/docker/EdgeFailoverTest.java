package dev.agora.docker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The committed docker/haproxy/haproxy.cfg, run by a real haproxy process in front of two stand-in
 * frontends on loopback ports (only the addresses are rewritten): it spreads load, keeps serving when a
 * frontend dies, retries on the other frontend only requests that are safe to repeat, and keeps internal
 * endpoints off the public port. docker/validate.sh installs haproxy in CI; without it the test is skipped.
 */
class EdgeFailoverTest {

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .executor(Executors.newVirtualThreadPerTaskExecutor())
            .build();
    private final StandInFrontend frontendA = new StandInFrontend("A", true);
    private final StandInFrontend frontendB = new StandInFrontend("B", false);
    private Process haproxy;
    private int edgePort;

    /** A frontend replica stand-in; a "dying" one receives buys but fails before it answers them. */
    private static final class StandInFrontend {
        final String name;
        final Set<String> buysReceived = ConcurrentHashMap.newKeySet();
        /** The headers of each request that named itself with {@code X-Test-Request}, as they arrived. */
        final Map<String, Map<String, List<String>>> headersSeen = new ConcurrentHashMap<>();

        final HttpServer server;

        StandInFrontend(String name, boolean diesDuringBuys) {
            this.name = name;
            try {
                server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            server.createContext("/", exchange -> {
                String testRequest = exchange.getRequestHeaders().getFirst("X-Test-Request");
                if (testRequest != null) headersSeen.put(testRequest, Map.copyOf(exchange.getRequestHeaders()));
                if (exchange.getRequestMethod().equals("POST")) {
                    exchange.getRequestBody().readAllBytes();
                    buysReceived.add(exchange.getRequestHeaders().getFirst("X-Test-Request"));
                    String path = exchange.getRequestURI().getPath();
                    boolean buy = path.equals("/api/orders") || path.startsWith("/buy/");
                    if (diesDuringBuys && buy) {
                        exchange.close(); // the connection drops without an answer
                        return;
                    }
                    respond(exchange, 201);
                    return;
                }
                respond(exchange, 200);
            });
            server.start();
        }

        private void respond(HttpExchange exchange, int status) throws IOException {
            byte[] body = name.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        }

        int port() {
            return server.getAddress().getPort();
        }
    }

    private static boolean haproxyInstalled() {
        try {
            Process version = new ProcessBuilder("haproxy", "-v")
                    .redirectErrorStream(true)
                    .start();
            version.getInputStream().readAllBytes();
            return version.waitFor(10, TimeUnit.SECONDS) && version.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @BeforeEach
    void startEdge() throws Exception {
        assumeTrue(haproxyInstalled(), "haproxy is not installed (docker/validate.sh installs it)");
        edgePort = freePort();
        String config = DockerDirectory.read("haproxy/haproxy.cfg")
                .replace("server frontend-1 frontend-1:8080", "server frontend-1 127.0.0.1:" + frontendA.port())
                .replace("server frontend-2 frontend-2:8080", "server frontend-2 127.0.0.1:" + frontendB.port())
                .replace("bind :8080", "bind 127.0.0.1:" + edgePort)
                .replace("bind :8404", "bind 127.0.0.1:" + freePort())
                // Check timing is not under test here; on a loaded machine a 1 s check timeout could take a
                // stand-in out of rotation and starve the scenarios of traffic.
                .replace("timeout check 1s", "timeout check 10s");
        assertThat(config)
                .contains("127.0.0.1:" + frontendA.port(), "127.0.0.1:" + frontendB.port(), "timeout check 10s");
        Path directory = Files.createDirectories(DockerDirectory.ROOT.resolve("target/edge-failover"));
        Path configFile = Files.writeString(directory.resolve("haproxy.cfg"), config);
        haproxy = new ProcessBuilder("haproxy", "-db", "-f", configFile.toString())
                .redirectErrorStream(true)
                .redirectOutput(directory.resolve("haproxy.log").toFile())
                .start();
        awaitBothFrontendsInRotation();
    }

    @AfterEach
    void stopEverything() throws InterruptedException {
        if (haproxy != null) {
            haproxy.destroy();
            if (!haproxy.waitFor(10, TimeUnit.SECONDS)) haproxy.destroyForcibly();
        }
        frontendA.server.stop(0);
        frontendB.server.stop(0);
        client.close();
    }

    /** A GET with the path sent exactly as written (no client-side normalization), on a raw socket. */
    private String[] rawGet(String path) throws IOException {
        try (java.net.Socket socket = new java.net.Socket(InetAddress.getLoopbackAddress(), edgePort)) {
            socket.setSoTimeout((int) REQUEST_TIMEOUT.toMillis());
            socket.getOutputStream()
                    .write(("GET " + path + " HTTP/1.1\r\nHost: edge\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.ISO_8859_1));
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            String status = response.split(" ", 3)[1];
            String body = response.substring(response.indexOf("\r\n\r\n") + 4);
            String contentType = response.lines()
                    .filter(line -> line.toLowerCase().startsWith("content-type:"))
                    .findFirst()
                    .orElse("");
            return new String[] {status, contentType, body};
        }
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + edgePort + path))
                        .timeout(REQUEST_TIMEOUT)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest buyRequest(String testRequest, String idempotencyKey) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + edgePort + "/api/orders"))
                .timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "application/json")
                .header("X-Test-Request", testRequest)
                .POST(HttpRequest.BodyPublishers.ofString("{\"bookId\":1,\"quantity\":1}"));
        if (idempotencyKey != null) request.header("Idempotency-Key", idempotencyKey);
        return request.build();
    }

    /** A buy as the first request of a new client connection; the outcome is the status or "dropped". */
    private String buyOnNewConnection(String testRequest, String idempotencyKey) throws InterruptedException {
        try (HttpClient fresh =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            return String.valueOf(
                    fresh.send(buyRequest(testRequest, idempotencyKey), HttpResponse.BodyHandlers.ofString())
                            .statusCode());
        } catch (IOException e) {
            return "dropped";
        }
    }

    /** A buy on the client's kept-alive connection (after earlier requests); status or "dropped". */
    private String buyOnKeptAliveConnection(String testRequest) throws InterruptedException {
        try {
            return String.valueOf(client.send(buyRequest(testRequest, null), HttpResponse.BodyHandlers.ofString())
                    .statusCode());
        } catch (IOException e) {
            return "dropped";
        }
    }

    private void awaitBothFrontendsInRotation() throws Exception {
        Instant deadline = Instant.now().plusSeconds(30);
        Set<String> seen = new HashSet<>();
        while (seen.size() < 2) {
            assertThat(Instant.now())
                    .as("both frontends in rotation before the deadline")
                    .isBefore(deadline);
            try {
                HttpResponse<String> response = get("/api/books/1");
                if (response.statusCode() == 200) seen.add(response.body());
            } catch (IOException notListeningYet) {
                // haproxy is still starting
            }
            Thread.sleep(100);
        }
    }

    @Test
    void spreadsRequestsOverTheFrontends() throws Exception {
        Set<String> servedBy = new HashSet<>();
        for (int i = 0; i < 20 && servedBy.size() < 2; i++)
            servedBy.add(get("/api/books/1").body());

        assertThat(servedBy).containsExactlyInAnyOrder("A", "B");
    }

    @Test
    void keepsAnsweringWhenAFrontendDies() throws Exception {
        frontendA.server.stop(0); // like a killed process: its port now refuses connections

        for (int i = 0; i < 20; i++) {
            HttpResponse<String> response = get("/api/books/1");
            assertThat(response.statusCode()).as("request %d", i).isEqualTo(200);
            assertThat(response.body()).isEqualTo("B");
        }
    }

    @Test
    void neverDeliversABuyWithoutIdempotencyKeyToTwoFrontends() throws Exception {
        List<String> onNewConnections = new ArrayList<>();
        for (int i = 0; i < 30 && frontendA.buysReceived.size() < 3; i++)
            onNewConnections.add(buyOnNewConnection("new-" + i, null));
        int reachedDyingOnNewConnections = frontendA.buysReceived.size();
        List<String> onKeptAliveConnection = new ArrayList<>();
        for (int i = 0; i < 30 && frontendA.buysReceived.size() < reachedDyingOnNewConnections + 3; i++)
            onKeptAliveConnection.add(buyOnKeptAliveConnection("kept-alive-" + i));

        assertThat(reachedDyingOnNewConnections)
                .as("buys on new connections reaching the dying frontend")
                .isEqualTo(3);
        assertThat(frontendA.buysReceived)
                .as("buys reaching the dying frontend")
                .hasSize(6);
        Set<String> reachedBoth = new HashSet<>(frontendA.buysReceived);
        reachedBoth.retainAll(frontendB.buysReceived);
        assertThat(reachedBoth).as("buys delivered to two frontends").isEmpty();
        // First request of a connection: the edge answers 502. On a kept-alive connection it closes the
        // connection without an answer instead, as the frontend itself would have; the client decides.
        assertThat(onNewConnections).containsOnly("201", "502");
        assertThat(onNewConnections).filteredOn("502"::equals).hasSize(3);
        assertThat(onKeptAliveConnection).isSubsetOf("201", "502", "dropped");
    }

    @Test
    void retriesABuyWithIdempotencyKeyOnTheOtherFrontend() throws Exception {
        for (int i = 0; i < 30 && frontendA.buysReceived.size() < 3; i++) {
            assertThat(buyOnNewConnection("keyed-" + i, "key-" + i))
                    .as("buy %d", i)
                    .isEqualTo("201");
        }
        assertThat(frontendA.buysReceived)
                .as("buys that reached the dying frontend first")
                .hasSize(3);
        assertThat(frontendB.buysReceived).containsAll(frontendA.buysReceived);
    }

    @Test
    void answersInternalAndActuatorPathsItselfWithProblemJson() throws Exception {
        for (String path : List.of("/internal/cache/invalidations", "/actuator/prometheus", "/internal")) {
            HttpResponse<String> response = get(path);
            assertThat(response.statusCode()).as(path).isEqualTo(404);
            assertThat(response.headers().firstValue("Content-Type")).contains("application/problem+json");
            assertThat(response.body()).contains("\"type\":\"https://agora.dev/problems/not-found\"");
        }
    }

    @Test
    void refusesPathTricksAndCatchesDisguisedInternalPaths() throws Exception {
        // Disguised internal or operational paths: normalized first, then the 404 rule catches them.
        for (String path : List.of(
                "/%69nternal/cache/invalidations",
                "/%61ctuator/prometheus",
                "/api/%2E%2E/internal/cache/invalidations",
                "/api/books/../../actuator/health",
                "//internal/cache/invalidations")) {
            String[] response = rawGet(path);
            assertThat(response[0]).as(path).isEqualTo("404");
            assertThat(response[2]).as(path).contains("\"type\":\"https://agora.dev/problems/not-found\"");
        }
        // What normalization cannot make safe is refused outright, as problem+json.
        for (String path : List.of(
                "/api/books/..%2Finternal",
                "/api/books/%2e%2e%2finternal",
                "/admin;x/books",
                "/api/books%5C1",
                "/api/books\\1",
                "/../internal/cache/invalidations",
                "/api/books/%252F",
                "/api/books/%zz")) {
            String[] response = rawGet(path);
            assertThat(response[0]).as(path).isEqualTo("400");
            assertThat(response[1]).as(path).contains("application/problem+json");
            assertThat(response[2]).as(path).contains("\"status\":400");
        }
        // Ordinary paths and queries still reach a frontend.
        for (String path : List.of("/api/books/1", "/api/books?topic=a%2Fb", "/search/distributed%20systems")) {
            assertThat(rawGet(path)[0]).as(path).isEqualTo("200");
        }
    }

    /** Raw request bytes in, the whole answer out (status line, headers, body). */
    private String raw(String request) throws IOException {
        try (java.net.Socket socket = new java.net.Socket(InetAddress.getLoopbackAddress(), edgePort)) {
            socket.setSoTimeout((int) REQUEST_TIMEOUT.toMillis());
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void refusesABodyOverTheCapBeforeReadingIt() throws Exception {
        // Claims 8 MB, sends 20 KB of it: the edge answers without waiting for the rest.
        String answer = raw("POST /api/orders HTTP/1.1\r\nHost: edge\r\nContent-Type: application/json\r\n"
                + "X-Test-Request: huge\r\nContent-Length: 8388608\r\nConnection: close\r\n\r\n"
                + "x".repeat(20_000));

        assertThat(answer).startsWith("HTTP/1.1 413 ");
        assertThat(answer).containsIgnoringCase("content-type: application/problem+json");
        assertThat(answer).contains("content-too-large");
        assertThat(frontendA.buysReceived).doesNotContain("huge");
        assertThat(frontendB.buysReceived).doesNotContain("huge");
        assertThat(get("/api/books/1").statusCode()).isEqualTo(200);
    }

    @Test
    void refusesSignInAttemptsPastTheRatePerAddress() throws Exception {
        List<Integer> statuses = new ArrayList<>();
        HttpResponse<String> refused = null;
        for (int i = 0; i < 40 && refused == null; i++) {
            HttpResponse<String> response = client.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + edgePort + "/oauth2/token"))
                            .timeout(REQUEST_TIMEOUT)
                            .header("Content-Type", "application/x-www-form-urlencoded")
                            .header("X-Test-Request", "sign-in-" + i)
                            .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            statuses.add(response.statusCode());
            if (response.statusCode() == 429) refused = response;
        }

        assertThat(statuses.subList(0, 30))
                .as("the first 30 attempts reach a frontend")
                .containsOnly(201);
        assertThat(refused).as("an attempt past 30 a minute is refused").isNotNull();
        assertThat(statuses).hasSize(31);
        assertThat(refused.headers().firstValue("Retry-After")).contains("60");
        assertThat(refused.headers().firstValue("Content-Type")).contains("application/problem+json");
        assertThat(refused.body()).contains("too-many-requests");
        assertThat(get("/api/books/1").statusCode())
                .as("other requests still pass")
                .isEqualTo(200);
    }

    @Test
    void setsTheForwardedHeadersItselfAndDropsTheClientsWritingFrontend() throws Exception {
        String answer = raw("GET /api/books/1 HTTP/1.1\r\nHost: shop.example:8080\r\nX-Test-Request: forged\r\n"
                + "X-Forwarded-For: 203.0.113.9\r\nX-Forwarded-Proto: https\r\nX-Forwarded-Host: evil.example\r\n"
                + "X-Forwarded-Port: 443\r\nForwarded: for=203.0.113.9;proto=https;host=evil.example\r\n"
                + "X-Forwarded-Prefix: /evil\r\nAgora-Writing-Frontend: http://frontend-2:8080\r\n"
                + "Connection: close\r\n\r\n");
        assertThat(answer).startsWith("HTTP/1.1 200 ");

        Map<String, List<String>> seen = frontendA.headersSeen.containsKey("forged")
                ? frontendA.headersSeen.get("forged")
                : frontendB.headersSeen.get("forged");
        assertThat(seen).as("the request reached a frontend").isNotNull();
        assertThat(seen.get("X-forwarded-for"))
                .as("the address the edge saw, not the client's claim")
                .containsExactly("127.0.0.1");
        assertThat(seen.get("X-forwarded-proto")).containsExactly("http");
        assertThat(seen.get("X-forwarded-host")).containsExactly("shop.example:8080");
        assertThat(seen.get("X-forwarded-port")).containsExactly(Integer.toString(edgePort));
        assertThat(seen).doesNotContainKeys("Forwarded", "X-forwarded-prefix", "Agora-writing-frontend");
    }

    @Test
    void aRequestWithoutHostGetsNoForwardedHostOfTheClients() throws Exception {
        String answer = raw("GET /api/books/1 HTTP/1.0\r\nX-Test-Request: no-host\r\n"
                + "X-Forwarded-Host: evil.example\r\nX-Forwarded-Proto: https\r\n\r\n");
        assertThat(answer).startsWith("HTTP/1.1 200 ");

        Map<String, List<String>> seen = frontendA.headersSeen.containsKey("no-host")
                ? frontendA.headersSeen.get("no-host")
                : frontendB.headersSeen.get("no-host");
        assertThat(seen).as("the request reached a frontend").isNotNull();
        assertThat(seen).doesNotContainKey("X-forwarded-host");
        assertThat(seen.get("X-forwarded-proto")).containsExactly("http");
    }
}
