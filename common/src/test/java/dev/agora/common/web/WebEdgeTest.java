package dev.agora.common.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.common.CommonTestApplication;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

@SpringBootTest(
        classes = CommonTestApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"server.address=127.0.0.1", "agora.security.internal-token=it-secret"})
class WebEdgeTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @Autowired
    CommonTestApplication.Endpoints endpoints;

    @Test
    void internalEndpointWithoutTokenIsUnauthorizedProblem() throws Exception {
        var response = get("/internal/ping", null, null);
        assertThat(response.statusCode()).isEqualTo(401);
        assertProblem(response, "unauthorized");
    }

    @Test
    void internalEndpointWithWrongTokenIsForbidden() throws Exception {
        var response = get("/internal/ping", "X-Internal-Token", "not-it");
        assertThat(response.statusCode()).isEqualTo(403);
        assertProblem(response, "forbidden");
    }

    @Test
    void internalEndpointWithConfiguredTokenPasses() throws Exception {
        var response = get("/internal/ping", "X-Internal-Token", "it-secret");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("internal");
    }

    @Test
    void adminEndpointNeedsTheAdminTokenNotTheInternalOne() throws Exception {
        assertThat(get("/admin/ping", "X-Internal-Token", "it-secret").statusCode())
                .isEqualTo(401);
        assertThat(get("/admin/ping", "X-Admin-Token", "it-secret").statusCode())
                .isEqualTo(403);
        assertThat(get("/admin/ping", "X-Admin-Token", "dev-admin-token").statusCode())
                .isEqualTo(200);
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
        var response = get("/no/such/route", null, null);
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

    @Test
    void requestIdIsEchoedWhenSaneAndMadeOtherwise() throws Exception {
        var echoed = get("/public/items/1", "X-Request-Id", "abc-123");
        assertThat(echoed.headers().firstValue("X-Request-Id")).contains("abc-123");

        var made = get("/public/items/1", "X-Request-Id", "bad id with spaces");
        assertThat(made.headers().firstValue("X-Request-Id"))
                .hasValueSatisfying(id -> assertThat(id).matches("[0-9a-f-]{36}"));
    }

    @Test
    void everyAnswerCarriesServerTimingAlsoARefusalByTheTokenGuard() throws Exception {
        assertThat(get("/public/items/1", null, null).headers().firstValue("Server-Timing"))
                .hasValueSatisfying(timing -> assertThat(timing).matches("total;dur=\\d+\\.\\d{3}"));
        assertThat(get("/internal/ping", null, null).headers().firstValue("Server-Timing"))
                .hasValueSatisfying(timing -> assertThat(timing).startsWith("total;dur="));
    }

    @Test
    void aSmallResponseEntityGoesOutWithItsLengthNotChunked() throws Exception {
        var created = post("/public/orders", "{\"name\": \"x\", \"quantity\": 2}");
        assertThat(created.statusCode()).isEqualTo(201);
        assertThat(created.headers().firstValue("Location")).contains("/public/orders/1");
        assertThat(created.headers().firstValue("Transfer-Encoding")).isEmpty();
        assertThat(created.headers().firstValueAsLong("Content-Length"))
                .hasValue(created.body().getBytes(StandardCharsets.UTF_8).length);

        var refused = get("/public/items/101", null, null);
        assertThat(refused.headers().firstValue("Transfer-Encoding")).isEmpty();
        assertThat(refused.headers().firstValueAsLong("Content-Length"))
                .hasValue(refused.body().getBytes(StandardCharsets.UTF_8).length);
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

    private HttpResponse<String> post(String path, String json) throws Exception {
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
