package dev.agora.perf.experiment.bookstore;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/**
 * Whether a caller has every replica of a service in its load balancing again, from the caller's own gauge
 * {@code agora.client.instances.admitted{service}} (common's replica clients: the replicas Spring Cloud LoadBalancer
 * offers calls to, health-checked and not ejected by their breaker): one small metrics read per caller, so it can be
 * polled every few milliseconds while the caller serves load. With one replica of the service down the gauge reads
 * one less than the service has; once the restarted (or thawed) one passes its health check it reads them all.
 */
final class Rotation {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofMillis(200)).build();
    private static final String VALUE = "\"value\":";

    private Rotation() {}

    /** True when any of {@code callers} (base URLs) admits all {@code replicas} replicas of {@code serviceId}. */
    static boolean allAdmittedByAny(List<String> callers, String serviceId, int replicas) {
        for (String caller : callers) {
            if (admitted(caller, serviceId) >= replicas) return true;
        }
        return false;
    }

    /** The caller's gauge for {@code serviceId}; -1 when it could not be read. */
    static double admitted(String caller, String serviceId) {
        try {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(URI.create(caller
                                    + "/actuator/metrics/agora.client.instances.admitted?tag=service:" + serviceId))
                            .timeout(Duration.ofMillis(500))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? value(response.body()) : -1;
        } catch (java.io.IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** The first {@code "value":} of an actuator metrics answer; -1 when there is none. */
    static double value(String body) {
        int at = body.indexOf(VALUE);
        if (at < 0) return -1;
        int from = at + VALUE.length();
        int to = from;
        while (to < body.length() && "0123456789.-+eE".indexOf(body.charAt(to)) >= 0) to++;
        try {
            return Double.parseDouble(body.substring(from, to));
        } catch (NumberFormatException notANumber) {
            return -1;
        }
    }
}
