package dev.agora.perf.experiment.bookstore;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * Whether a caller has a replica in its load balancing, from the caller's own gauge
 * {@code agora.client.instance.admitted} (common's replica clients: passing its health checks, breaker not open): one small metrics read per caller, so it
 * can be polled every few milliseconds while the caller serves load.
 */
final class Rotation {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofMillis(200)).build();
    private static final String VALUE = "\"value\":";

    private Rotation() {}

    /** True when any of {@code callers} (base URLs) has the replica at {@code replicaUrl} admitted. */
    static boolean admittedByAny(List<String> callers, String replicaUrl) {
        for (String caller : callers) {
            if (admitted(caller, replicaUrl)) return true;
        }
        return false;
    }

    private static boolean admitted(String caller, String replicaUrl) {
        String tag = URLEncoder.encode("instance:" + replicaUrl, StandardCharsets.UTF_8);
        try {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(
                                    URI.create(caller + "/actuator/metrics/agora.client.instance.admitted?tag=" + tag))
                            .timeout(Duration.ofMillis(500))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) return false;
            int at = response.body().indexOf(VALUE);
            return at >= 0 && response.body().startsWith("1", at + VALUE.length());
        } catch (java.io.IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
