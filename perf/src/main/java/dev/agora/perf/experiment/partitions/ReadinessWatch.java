package dev.agora.perf.experiment.partitions;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Asks one instance, directly (not through its links), whether it is ready ({@code /readyz}, the probe its callers'
 * load balancers use) every 100 ms, and counts the calls it served on one path (its {@code http.server.requests}
 * metric): what a fault that only its readiness check can see, a clock step, does to it and to its callers.
 */
final class ReadinessWatch implements AutoCloseable {

    private static final Pattern COUNT =
            Pattern.compile("\"statistic\"\\s*:\\s*\"COUNT\"\\s*,\\s*\"value\"\\s*:\\s*([0-9.Ee+]+)");

    private final String url;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofMillis(300)).build();
    private final Thread thread;
    private volatile boolean running = true;
    /** nanoTime of the latest answer, and whether it said ready; 0 before the first. */
    private volatile long lastAnswer;

    private volatile boolean ready;

    ReadinessWatch(String url) {
        this.url = url;
        this.thread = Thread.ofPlatform().daemon().name("readiness-watch").start(this::run);
    }

    private void run() {
        while (running) {
            try {
                HttpResponse<Void> answer = http.send(
                        HttpRequest.newBuilder(URI.create(url + "/readyz"))
                                .timeout(Duration.ofMillis(500))
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
                ready = answer.statusCode() == 200;
                lastAnswer = System.nanoTime();
            } catch (IOException silent) {
                // No answer says nothing about its readiness check.
            } catch (InterruptedException e) {
                return;
            }
            Buyers.sleep(100);
        }
    }

    /**
     * Waits until an answer given after {@code since} says {@code wanted}, at most {@code timeout}; the nanoTime of
     * that answer, or -1.
     */
    long await(boolean wanted, long since, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            long answered = lastAnswer;
            if (answered - since > 0 && ready == wanted) return answered;
            Buyers.sleep(20);
        }
        return -1;
    }

    /** Calls the instance served on {@code uri} (a request mapping, e.g. "/internal/reservations") so far. */
    long served(String uri) {
        try {
            HttpResponse<String> metric = http.send(
                    HttpRequest.newBuilder(URI.create(url + "/actuator/metrics/http.server.requests?tag=uri:" + uri))
                            .timeout(Duration.ofSeconds(2))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            // 404: no such call served yet.
            if (metric.statusCode() == 404) return 0;
            Matcher count = COUNT.matcher(metric.body());
            return count.find() ? (long) Double.parseDouble(count.group(1)) : -1;
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
