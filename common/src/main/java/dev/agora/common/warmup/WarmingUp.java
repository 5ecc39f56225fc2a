package dev.agora.common.warmup;

import dev.agora.common.security.ServiceTokens;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationListener;

/**
 * Sends the service its own {@link WarmUpRequests} through its HTTP stack, Spring MVC, Jackson and database driver
 * until the JIT has compiled the hot part of it, as an application runner (after the web server started, before
 * readiness), when {@link WarmUpProperties.Mode} says; a training run then stops the service, whose JVM writes its AOT
 * cache as it exits. Why: on a small machine, JVMs that start together and take load at once compile their request
 * paths for over a minute, during which a cluster's buys take seconds instead of milliseconds, or time out.
 */
// Where a mode is named; off (the default) leaves it idle. A plain property condition, not an expression on the
// mode's value: no SpEL evaluated while the configuration is read at start.
@ConditionalOnProperty("agora.warm-up.mode")
public final class WarmingUp
        implements ApplicationRunner, ApplicationListener<AvailabilityChangeEvent<ReadinessState>> {

    private static final Logger log = LoggerFactory.getLogger(WarmingUp.class);
    /** Callers sending at once: enough to keep a core busy with the request path, while the other starts the rest. */
    private static final int CALLERS = 2;

    private final WarmUpProperties properties;
    private final List<String> requests;
    private final ServiceTokens tokens;
    private final WebServerApplicationContext context;
    private volatile Result result = new Result(0, Map.of(), Duration.ZERO);
    private final AtomicBoolean readyOnce = new AtomicBoolean();

    public WarmingUp(
            WarmUpProperties properties,
            ObjectProvider<WarmUpRequests> requests,
            ServiceTokens tokens,
            WebServerApplicationContext context) {
        this.properties = properties;
        this.requests =
                requests.orderedStream().flatMap(own -> own.requests().stream()).toList();
        this.tokens = tokens;
        this.context = context;
    }

    /** What warm-up sent: how many requests, how many got each status (0: no answer), and how long it took. */
    public record Result(int requests, Map<Integer, Long> byStatus, Duration took) {}

    public Result result() {
        return result;
    }

    @Override
    public void run(ApplicationArguments arguments) throws InterruptedException {
        if (properties.mode() != WarmUpProperties.Mode.OFF) warmUp();
    }

    /** A training run stops once the service first reports ready (a later return to accepting traffic is no start). */
    @Override
    public void onApplicationEvent(AvailabilityChangeEvent<ReadinessState> event) {
        if (properties.mode() != WarmUpProperties.Mode.TRAINING
                || event.getState() != ReadinessState.ACCEPTING_TRAFFIC
                || !readyOnce.compareAndSet(false, true)) return;
        // From a thread of its own: closing the context from the thread that publishes its events would deadlock.
        Thread.ofPlatform().name("warm-up-exit").start(() -> System.exit(SpringApplication.exit(context)));
    }

    private void warmUp() throws InterruptedException {
        if (requests.isEmpty() || properties.maxRequests() == 0) return;
        String address = context.getEnvironment().getProperty("server.address", "127.0.0.1");
        String host = address.equals("0.0.0.0") || address.equals("::") ? "127.0.0.1" : address;
        URI base = URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":"
                + context.getWebServer().getPort());
        String token = ownToken();
        List<HttpRequest> sending =
                requests.stream().map(line -> request(base, line, token)).toList();

        long started = System.nanoTime();
        long deadline = started + WarmUpProperties.DURATION.toNanos();
        AtomicInteger sent = new AtomicInteger();
        Map<Integer, Long> byStatus = new ConcurrentHashMap<>();
        try (HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2))
                .build()) {
            List<Thread> callers = new ArrayList<>();
            for (int c = 0; c < CALLERS; c++) {
                callers.add(Thread.ofPlatform().name("warm-up-" + c).start(() -> {
                    int next;
                    while (System.nanoTime() - deadline < 0
                            && (next = sent.getAndIncrement()) < properties.maxRequests()) {
                        byStatus.merge(send(client, sending.get(next % sending.size())), 1L, Long::sum);
                    }
                }));
            }
            for (Thread caller : callers) caller.join();
        }
        Map<Integer, Long> counts = new TreeMap<>(byStatus);
        int total = (int) counts.values().stream().mapToLong(Long::longValue).sum();
        result = new Result(total, Map.copyOf(counts), Duration.ofNanos(System.nanoTime() - started));
        log.info(
                "Warmed up with {} requests to itself in {} ms (by status: {}) before reporting ready",
                total,
                result.took().toMillis(),
                counts);
    }

    private int send(HttpClient client, HttpRequest request) {
        try {
            return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    /**
     * The service's own token, so that warm-up requests to internal endpoints reach their code; without one (a
     * service that calls no other, or no authorization server up yet) they warm the refusal path only.
     */
    private String ownToken() {
        try {
            return tokens.bearer();
        } catch (RuntimeException e) {
            log.info("Warming up without a token: {}", e.getMessage());
            return null;
        }
    }

    private HttpRequest request(URI base, String line, String token) {
        String[] parts = line.strip().split("\\s+", 3);
        if (parts.length < 2 || !parts[1].startsWith("/")) {
            throw new IllegalArgumentException("WarmUpRequests want 'METHOD /path [json]', got: " + line);
        }
        HttpRequest.BodyPublisher body =
                parts.length == 3 ? HttpRequest.BodyPublishers.ofString(parts[2]) : HttpRequest.BodyPublishers.noBody();
        HttpRequest.Builder builder = HttpRequest.newBuilder(base.resolve(parts[1]));
        if (token != null) builder.header("Authorization", "Bearer " + token);
        return builder.timeout(Duration.ofSeconds(5))
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", "warm-up")
                .method(parts[0], body)
                .build();
    }
}
