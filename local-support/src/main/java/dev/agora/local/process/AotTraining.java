package dev.agora.local.process;

import dev.agora.local.cluster.Health;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One JDK 25 AOT training run of a service (JEP 483, 514, 515), as the launcher's caches and the tests' are trained:
 * the service starts with {@code -XX:AOTCacheOutput}, is sent its {@link #REQUESTS} once it is ready (an exchange:
 * ready, or standing by for the active one), and is stopped (SIGTERM); its JVM writes the cache as it exits. Traces stay off in training even when the instance's environment
 * turns them on: the run's own requests are no one's work, and a collector would see them as traces of their own.
 */
public final class AotTraining {

    /**
     * What a training run sends each service, in turn, so that its cache holds the request path and not only the
     * start: reads, and writes the service refuses as invalid (a quantity of 0), so that nothing changes. Sent without
     * a token, internal and personal reads train the refusal. The exchange gets none: its hot path is the XML
     * protocol, and its JSON API answers nothing without a trader's token.
     */
    static final Map<String, List<String>> REQUESTS = Map.of(
            "catalog-service",
            List.of(
                    "GET /books/1",
                    "GET /books?topic=distributed%20systems",
                    "GET /internal/reservations/1",
                    "POST /internal/reservations {\"orderId\": 1, \"bookId\": 1, \"quantity\": 0}"),
            "order-service",
            List.of("GET /orders/1", "GET /orders?page=0&size=5", "POST /orders {\"bookId\": 1, \"quantity\": 0}"),
            "frontend-service",
            List.of(
                    "GET /api/books/1",
                    "GET /api/books?topic=distributed%20systems",
                    "GET /api/orders/1",
                    "POST /api/orders {\"bookId\": 1, \"quantity\": 0}",
                    "POST /buy/1?quantity=0"));

    private AotTraining() {}

    /** The JVM options of a training run writing {@code cache}, after the instances' own. */
    public static List<String> jvmOptions(List<String> instanceOptions, Path cache) {
        List<String> options = new ArrayList<>(instanceOptions);
        options.add("-XX:AOTCacheOutput=" + cache);
        options.add("-Dmanagement.tracing.export.enabled=false");
        return options;
    }

    /**
     * Starts {@code service} (built with {@link #jvmOptions}), tells {@code started}, sends it {@code count} of
     * {@code module}'s requests once it is ready, stops it and checks that it wrote {@code cache}.
     */
    public static void run(
            ServiceProcess service,
            String module,
            int count,
            Path cache,
            Duration timeout,
            Consumer<ServiceProcess> started) {
        try (service) {
            service.start();
            started.accept(service);
            Health.awaitActiveOrStandby(service, timeout);
            send(URI.create(service.baseUrl()), REQUESTS.getOrDefault(module, List.of()), count);
            service.stop(timeout);
        }
        if (!Files.isRegularFile(cache)) throw new IllegalStateException("the training run wrote no cache");
    }

    private static void send(URI base, List<String> requests, int count) {
        if (requests.isEmpty()) return;
        try (HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2))
                .build()) {
            for (int i = 0; i < count; i++) {
                String[] parts = requests.get(i % requests.size()).split(" ", 3);
                var body = parts.length == 3
                        ? HttpRequest.BodyPublishers.ofString(parts[2])
                        : HttpRequest.BodyPublishers.noBody();
                var request = HttpRequest.newBuilder(base.resolve(parts[1]))
                        .timeout(Duration.ofSeconds(5))
                        .header("Content-Type", "application/json")
                        .header("Idempotency-Key", "aot-training")
                        .method(parts[0], body)
                        .build();
                try {
                    client.send(request, HttpResponse.BodyHandlers.discarding());
                } catch (IOException refusedOrSlow) {
                    // A request that fails trains its failure path; the cache is what counts.
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
            }
        }
    }
}
