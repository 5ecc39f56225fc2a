package dev.agora.perf.cluster;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits until every frontend actually reaches every tier behind it. An instance's readiness probe says only that
 * the instance itself is up; a frontend started beside its upstreams has usually ejected them (their probes failed
 * while they were starting) and readmits them a moment later. Read-only calls for ids that do not exist go through
 * each tier without changing state or filling caches: 404 means the tier answered, 503 that it is not in service
 * yet.
 */
final class ServingCheck {

    private static final Logger log = LoggerFactory.getLogger(ServingCheck.class);
    private static final Duration POLL = Duration.ofMillis(200);

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    /** @return whether everything served before the timeout (a warning is logged otherwise, nothing thrown) */
    boolean await(List<String> frontends, ClusterSpec spec, Duration timeout) {
        List<String> probes = new ArrayList<>();
        if (spec.catalogs() > 0) probes.add("/api/books/" + Long.MAX_VALUE);
        if (spec.orders() > 0) probes.add("/api/orders/" + Long.MAX_VALUE);
        if (spec.exchange()) probes.add("/api/exchange/accounts/0");
        long deadline = System.nanoTime() + timeout.toNanos();
        for (String frontend : frontends) {
            for (String probe : probes) {
                while (!answers(frontend + probe)) {
                    if (System.nanoTime() > deadline) {
                        log.warn(
                                "{} does not serve {} yet after {} s; continuing",
                                frontend,
                                probe,
                                timeout.toSeconds());
                        return false;
                    }
                    sleep();
                }
            }
        }
        return true;
    }

    private boolean answers(String url) {
        try {
            HttpResponse<Void> response = http.send(
                    HttpRequest.newBuilder(URI.create(url))
                            .timeout(Duration.ofSeconds(5))
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
            return response.statusCode() < 500;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(POLL);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
