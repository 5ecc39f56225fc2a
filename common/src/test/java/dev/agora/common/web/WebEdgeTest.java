package dev.agora.common.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.common.CommonTestApplication;
import dev.agora.common.security.testing.TestIssuer;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

@SpringBootTest(
        classes = CommonTestApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"server.address=127.0.0.1", "spring.profiles.active=local"})
class WebEdgeTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final TestIssuer ISSUER = new TestIssuer();

    @DynamicPropertySource
    static void authorities(DynamicPropertyRegistry registry) {
        registry.add("agora.security.authorities", ISSUER::url);
    }

    @AfterAll
    static void stopIssuer() {
        ISSUER.close();
    }

    @LocalServerPort
    int port;

    @Autowired
    CommonTestApplication.Endpoints endpoints;

    @Autowired
    MeterRegistry meters;

    @Test
    void springSecurityChecksAreNotObservedOnlyTheRequestIs() throws Exception {
        assertThat(get("/admin/ping", "Authorization", "Bearer " + ISSUER.token("root", "admin"))
                        .statusCode())
                .isEqualTo(200);
        assertThat(get("/admin/ping", null, null).statusCode()).isEqualTo(401);

        assertThat(meters.getMeters())
                .noneMatch(meter -> meter.getId().getName().startsWith("spring.security"));
        assertThat(meters.find("http.server.requests").tag("uri", "/admin/ping").timers())
                .as("refused and answered requests are still observed")
                .isNotEmpty();
    }

    @Test
    void anAnonymousPublicReadTakesTheLeanChainAndABadTokenIsStillRefusedOnIt() throws Exception {
        var read = get("/public/items/7", null, null);
        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(read.body()).isEqualTo("{\"id\":7}");
        assertThat(read.headers().firstValue("X-Content-Type-Options"))
                .as("security headers are still written")
                .hasValue("nosniff");
        assertThat(get("/public/items/7", "Authorization", "Bearer " + ISSUER.token("alice", "customer"))
                        .statusCode())
                .isEqualTo(200);
        java.util.List<String> statuses = new java.util.ArrayList<>();
        for (String bad : new String[] {
            "Bearer " + ISSUER.expiredToken("x"), "Bearer not-a-jwt", "Bearer " + ISSUER.forgedToken("x")
        }) {
            statuses.add(get("/public/items/7", "Authorization", bad).statusCode() + " " + bad.substring(0, 12));
        }
        assertThat(statuses).allMatch(status -> status.startsWith("401"));
        assertProblem(get("/public/items/101", null, null), "not-found");

        int created = endpoints.itemsCreated();
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/public/items"))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer not-a-jwt")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"x\",\"quantity\":1}"))
                .build();
        assertThat(HTTP.send(request, HttpResponse.BodyHandlers.ofString()).statusCode())
                .as("a write is not a public read: its token is checked")
                .isEqualTo(401);
        assertThat(endpoints.itemsCreated()).isEqualTo(created);
        assertThat(raw("/public/items/%2e%2e/7"))
                .as("the firewall stands before every chain")
                .startsWith("HTTP/1.1 400");
    }

    @Test
    void internalEndpointWithoutTokenIsUnauthorizedProblemWithAChallenge() throws Exception {
        var response = get("/internal/ping", null, null);
        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate"))
                .hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
        assertProblem(response, "unauthorized");
    }

    @Test
    void expiredForgedAndForeignTokensAreUnauthorized() throws Exception {
        for (String token : new String[] {
            ISSUER.expiredToken("svc"), ISSUER.forgedToken("svc"), ISSUER.tokenFromOtherIssuer("svc"), "not-a-jwt"
        }) {
            var response = get("/internal/ping", "Authorization", "Bearer " + token);
            assertThat(response.statusCode()).isEqualTo(401);
            assertProblem(response, "unauthorized");
        }
    }

    @Test
    void theBearerSchemeIsReadInAnyCaseAndAMalformedHeaderIsRefused() throws Exception {
        String token = ISSUER.token("root", "admin");
        for (String scheme : new String[] {"Bearer ", "bearer ", "BEARER "}) {
            assertThat(get("/admin/ping", "Authorization", scheme + token).statusCode())
                    .as(scheme)
                    .isEqualTo(200);
        }
        for (String malformed : new String[] {"Bearer  " + token, "Bearer " + token + " x", "Bearer=" + token}) {
            var response = get("/admin/ping", "Authorization", malformed);
            assertThat(response.statusCode()).as(malformed.substring(0, 8)).isEqualTo(401);
            assertProblem(response, "unauthorized");
        }
    }

    @Test
    void aPersonOnAnInternalEndpointIsForbidden() throws Exception {
        var response = get("/internal/ping", "Authorization", "Bearer " + ISSUER.token("alice", "customer", "admin"));
        assertThat(response.statusCode()).isEqualTo(403);
        assertProblem(response, "forbidden");
    }

    @Test
    void aServiceTokenReachesInternalEndpoints() throws Exception {
        var response = get("/internal/ping", "Authorization", "Bearer " + ISSUER.serviceToken("order-service"));
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("internal");
    }

    @Test
    void adminEndpointNeedsTheAdminRoleNotTheInternalScope() throws Exception {
        assertThat(get("/admin/ping", "Authorization", "Bearer " + ISSUER.serviceToken("order-service"))
                        .statusCode())
                .isEqualTo(403);
        assertThat(get("/admin/ping", "Authorization", "Bearer " + ISSUER.token("bob", "customer"))
                        .statusCode())
                .isEqualTo(403);
        assertThat(get("/admin/ping", "Authorization", "Bearer " + ISSUER.token("root", "admin"))
                        .statusCode())
                .isEqualTo(200);
    }

    @Test
    void encodedAndNormalizedPathTricksCannotReachAGuardedEndpoint() throws Exception {
        // Path tricks the rules must not be fooled by: either refused outright by the firewall (400) or matched
        // on the decoded, normalized path and so refused as the guarded endpoint (401).
        for (String path : new String[] {
            "/%61dmin/ping",
            "/admin;x/ping",
            "//admin/ping",
            "/public/../admin/ping",
            "/public/%2e%2e/admin/ping",
            "/public/..;/admin/ping",
            "/admin/./ping",
            "/internal%2Fping"
        }) {
            var response = raw(path);
            assertThat(response).as(path).matches("HTTP/1.1 (400|401) .*");
        }
    }

    @Test
    void encodedSeparatorsAreRefusedAsProblemsNotServerPages() throws Exception {
        for (String path : new String[] {"/public/items%2F1", "/public/items%5C1", "/public%2f..%2fadmin/ping"}) {
            String answer = rawWhole(path);
            assertThat(answer).as(path).startsWith("HTTP/1.1 400 ");
            assertThat(answer).as(path).containsIgnoringCase("Content-Type: application/problem+json");
        }
    }

    @Test
    void unknownItemIsNotFoundProblem() throws Exception {
        var response = get("/public/items/101", null, null);
        assertThat(response.statusCode()).isEqualTo(404);
        assertProblem(response, "not-found");
        assertThat(response.body()).contains("No item 101");
    }

    @Test
    void unknownRouteIsNotFoundProblem() throws Exception {
        var response = get("/public/no/such/route", null, null);
        assertThat(response.statusCode()).isEqualTo(404);
        assertProblem(response, "not-found");
    }

    @Test
    void nonNumericPathVariableIsBadRequestProblem() throws Exception {
        var response = get("/public/items/abc", null, null);
        assertThat(response.statusCode()).isEqualTo(400);
        assertProblem(response, "bad-request");
    }

    @Test
    void malformedJsonIsBadRequestProblem() throws Exception {
        var response = post("/public/items", "{\"name\": \"x\", \"quantity\": ");
        assertThat(response.statusCode()).isEqualTo(400);
        assertProblem(response, "bad-request");
    }

    @Test
    void invalidFieldsAreListedInValidationProblem() throws Exception {
        var response = post("/public/items", "{\"name\": \"\", \"quantity\": -3}");
        assertThat(response.statusCode()).isEqualTo(400);
        assertProblem(response, "validation");
        assertThat(response.body()).contains("\"name\"").contains("\"quantity\"");
    }

    @Test
    void unexpectedErrorsRevealNothingInternal() throws Exception {
        var response = get("/public/boom", null, null);
        assertThat(response.statusCode()).isEqualTo(500);
        assertProblem(response, "internal");
        assertThat(response.body())
                .doesNotContain("Secret")
                .doesNotContain("Exception")
                .doesNotContain("at ");
    }

    /**
     * An HttpClient pool's timeout thrown in a controller, answered by the problem handler; its message does not leak.
     * (The frontend's filter answers a pool timeout thrown in filters: its BusyIdentityDatabaseTest.)
     */
    @Test
    void aPoolWithNoConnectionFreeInTimeIsABusyServiceNotAnError() throws Exception {
        var response = get("/public/busy", null, null);
        assertThat(response.statusCode()).isEqualTo(503);
        assertProblem(response, "service-unavailable");
        assertThat(response.headers().firstValue("Retry-After")).contains("1");
        assertThat(response.body())
                .contains("connections to a store or service")
                .doesNotContain("Timeout deadline");
    }

    @Test
    void requestIdIsEchoedWhenSaneAndMadeOtherwise() throws Exception {
        var echoed = get("/public/items/1", "X-Request-Id", "abc-123");
        assertThat(echoed.headers().firstValue("X-Request-Id")).contains("abc-123");

        var made = get("/public/items/1", "X-Request-Id", "bad id with spaces");
        assertThat(made.headers().firstValue("X-Request-Id"))
                .hasValueSatisfying(id -> assertThat(id).matches("[0-9a-f-]{36}"));
    }

    @Test
    void everyAnswerCarriesServerTimingAlsoARefusalBySpringSecurity() throws Exception {
        assertThat(get("/public/items/1", null, null).headers().firstValue("Server-Timing"))
                .hasValueSatisfying(timing -> assertThat(timing).matches("total;dur=\\d+\\.\\d{3}"));
        assertThat(get("/internal/ping", null, null).headers().firstValue("Server-Timing"))
                .hasValueSatisfying(timing -> assertThat(timing).startsWith("total;dur="));
    }

    @Test
    void aResponseLargerThanTheBufferStillStreamsWhole() throws Exception {
        var large = get("/public/catalogue", null, null);
        assertThat(large.statusCode()).isEqualTo(200);
        assertThat(large.body()).hasSize(CommonTestApplication.CATALOGUE_LENGTH);
        assertThat(large.headers().firstValue("Server-Timing")).isPresent();
    }

    @Test
    void aFlushFromAnAsyncThreadReachesTheClientAtOnce() throws Exception {
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/public/ticker"))
                .build();
        HttpResponse<InputStream> response = HTTP.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream())
                .get(5, TimeUnit.SECONDS);
        try (var lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.US_ASCII))) {
            assertThat(response.headers().firstValue("Server-Timing")).isPresent();
            assertThat(lines.readLine()).isEqualTo("first");
            endpoints.sendSecondTick();
            assertThat(lines.readLine()).isEqualTo("second");
            assertThat(lines.readLine()).isNull();
        }
    }

    private void assertProblem(HttpResponse<String> response, String slug) {
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(response.body()).contains("\"type\":\"https://agora.dev/problems/" + slug + "\"");
    }

    private HttpResponse<String> get(String path, String header, String value) throws Exception {
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
        if (header != null) request.header(header, value);
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The status line for a path sent byte for byte as written (HttpClient would normalize it). */
    private String raw(String path) throws Exception {
        try (var socket = new java.net.Socket("127.0.0.1", port)) {
            socket.getOutputStream()
                    .write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
                    .readLine();
        }
    }

    /** Status line, headers and body of a path sent byte for byte as written. */
    private String rawWhole(String path) throws Exception {
        try (var socket = new java.net.Socket("127.0.0.1", port)) {
            socket.getOutputStream()
                    .write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        }
    }

    private HttpResponse<String> post(String path, String json) throws Exception {
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
