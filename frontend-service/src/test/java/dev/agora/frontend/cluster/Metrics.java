package dev.agora.frontend.cluster;

import dev.agora.local.process.ServiceProcess;
import java.util.OptionalDouble;

/** Reads a service replica's own meters: its request counters, or one meter's answer from {@code /actuator/metrics}. */
public final class Metrics {

    private Metrics() {}

    /**
     * The first measurement in an answer of {@code /actuator/metrics/<name>[?tag=...]}: empty for a 404 (the replica
     * has not made that meter yet, or none with those tags); any other answer but 200 fails.
     */
    public static OptionalDouble firstMeasurement(Http.Response meter) {
        if (meter.status() == 404) return OptionalDouble.empty();
        if (meter.status() != 200) throw new AssertionError("meter answered " + meter);
        return OptionalDouble.of(
                meter.json().path("measurements").path(0).path("value").asDouble());
    }

    /**
     * Requests the replica has served outside {@code /actuator/**} and the {@code /livez} and {@code /readyz} probes:
     * the traffic it got from callers.
     */
    public static long businessRequests(Http http, ServiceProcess replica) {
        Http.Response scrape = http.get(replica.baseUrl() + "/actuator/prometheus");
        if (scrape.status() != 200) throw new IllegalStateException(replica.name() + " metrics: " + scrape);
        long total = 0;
        for (String line : scrape.body().split("\n")) {
            if (line.startsWith("http_server_requests_seconds_count{")
                    && !line.contains("uri=\"/actuator")
                    && !line.contains("uri=\"/readyz")
                    && !line.contains("uri=\"/livez")) {
                total += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return total;
    }
}
