package dev.agora.perf.experiment.bookstore;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.OptionalLong;

/**
 * Reads from an instance's own metrics how many real requests it has served (everything but
 * {@code /actuator/**}), to see when a restarted replica gets traffic again.
 */
final class ServedRequests {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofMillis(200)).build();

    private ServedRequests() {}

    /** The count, or empty when the instance does not answer or exposes no request metrics. */
    static OptionalLong of(String baseUrl) {
        try {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(URI.create(baseUrl + "/actuator/prometheus"))
                            .timeout(Duration.ofMillis(500))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) return OptionalLong.empty();
            return parse(response.body());
        } catch (java.io.IOException e) {
            return OptionalLong.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return OptionalLong.empty();
        }
    }

    static OptionalLong parse(String prometheus) {
        boolean any = false;
        double total = 0;
        for (String line : prometheus.split("\n")) {
            if (!line.startsWith("http_server_requests_seconds_count{")) continue;
            any = true;
            // Health probes and scrapes are not served requests: actuator, and the /livez and /readyz probes.
            if (line.contains("uri=\"/actuator") || line.contains("uri=\"/readyz") || line.contains("uri=\"/livez")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            try {
                total += Double.parseDouble(line.substring(space + 1).trim());
            } catch (NumberFormatException e) {
                // a malformed sample line says nothing about traffic
            }
        }
        return any ? OptionalLong.of(Math.round(total)) : OptionalLong.empty();
    }

    static boolean ready(String baseUrl) {
        try {
            return HTTP.send(
                                    HttpRequest.newBuilder(URI.create(baseUrl + "/readyz"))
                                            .timeout(Duration.ofMillis(300))
                                            .build(),
                                    HttpResponse.BodyHandlers.discarding())
                            .statusCode()
                    == 200;
        } catch (java.io.IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
