package dev.agora.frontend.cluster;

import dev.agora.local.process.ServiceProcess;

/** Reads a service replica's own request counters from {@code /actuator/prometheus}. */
public final class Metrics {

    private Metrics() {}

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
