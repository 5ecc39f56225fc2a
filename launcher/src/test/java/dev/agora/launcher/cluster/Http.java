package dev.agora.launcher.cluster;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A small JSON-over-HTTP client for the tests: every call returns status, body and its own duration. */
final class Http {

    static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient client = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(2))
            .version(HttpClient.Version.HTTP_1_1)
            .build();
    private final Duration timeout;

    Http(Duration timeout) {
        this.timeout = timeout;
    }

    record Reply(int status, String contentType, String body, Duration elapsed) {
        JsonNode json() {
            return JSON.readTree(body);
        }

        boolean isProblem() {
            return contentType.startsWith("application/problem+json");
        }

        @Override
        public String toString() {
            return status + " " + contentType + " after " + elapsed.toMillis() + " ms: " + body;
        }
    }

    Reply get(String url, String... headers) throws IOException, InterruptedException {
        return send(request(url, headers).GET());
    }

    Reply post(String url, Object body, String... headers) throws IOException, InterruptedException {
        return send(request(url, headers)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(
                        body instanceof String text ? text : JSON.writeValueAsString(body))));
    }

    /** An {@code application/x-www-form-urlencoded} POST, e.g. a token request. */
    Reply postForm(String url, String form, String... headers) throws IOException, InterruptedException {
        return send(request(url, headers)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)));
    }

    private HttpRequest.Builder request(String url, String... headers) {
        HttpRequest.Builder builder =
                HttpRequest.newBuilder(URI.create(url)).timeout(timeout).setHeader("Accept", "application/json");
        for (int i = 0; i + 1 < headers.length; i += 2) builder.setHeader(headers[i], headers[i + 1]);
        return builder;
    }

    private Reply send(HttpRequest.Builder request) throws IOException, InterruptedException {
        long started = System.nanoTime();
        HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        return new Reply(
                response.statusCode(),
                response.headers().firstValue("Content-Type").orElse(""),
                response.body(),
                Duration.ofNanos(System.nanoTime() - started));
    }

    static Map<String, Object> buy(long bookId, int quantity) {
        return Map.of("bookId", bookId, "quantity", quantity);
    }
}
