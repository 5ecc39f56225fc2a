package dev.agora.frontend.limits;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.agora.common.testing.ServerBoundsMetrics;
import dev.agora.frontend.cluster.BookstoreCluster;
import dev.agora.frontend.cluster.Http;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Every pool and queue of a real frontend shows its depth (or use), its bound and what it refused in its Prometheus
 * scrape; and its catalog client's bulkhead, filled by lookups a catalog holds unanswered, refuses the next lookup
 * at once with 503 problem+json and counts it, and answers again once the held lookups end.
 *
 * <p>The frontend runs over the suite's cluster, except that its one catalog is a small server of this test's: it
 * passes health checks, answers 404 to every read at once, and holds reads of books {@value #HELD_FROM} and above
 * until the test lets them go.
 */
class BoundsMetricsTest {

    private static final long HELD_FROM = 900_000;
    /** The catalog client's bulkhead in this frontend: two calls in flight. */
    private static final int CATALOG_CALLS = 2;

    private static HttpServer catalog;
    private static final CountDownLatch RELEASE = new CountDownLatch(1);
    private static ConfigurableApplicationContext frontend;
    private static String url;
    private static Http http;

    @BeforeAll
    static void start() {
        catalog = holdingCatalog();
        BookstoreCluster cluster = BookstoreCluster.get();
        frontend = cluster.startAnotherFrontend(
                "--agora.instances.catalog-service=http://127.0.0.1:"
                        + catalog.getAddress().getPort(),
                "--agora.clients.catalog-service.max-concurrent-calls=" + CATALOG_CALLS,
                // The held lookups must still be held when the refused one arrives.
                "--agora.clients.catalog-service.timeout=20s");
        url = "http://127.0.0.1:"
                + ((WebServerApplicationContext) frontend).getWebServer().getPort();
        http = new Http();
    }

    @AfterAll
    static void stop() throws Exception {
        RELEASE.countDown();
        if (http != null) http.close();
        if (frontend != null) frontend.close();
        if (catalog != null) catalog.stop(0);
    }

    @Test
    void everyPoolAndQueueHasADepthABoundAndARejectionMetric() {
        assertThat(scrape())
                .contains(ServerBoundsMetrics.TOMCAT_AND_HIKARI)
                .contains(List.of(
                        // Calls to the tiers: bulkheads, their refusals, connection pools.
                        "resilience4j_bulkhead_available_concurrent_calls{name=\"catalog-service\"",
                        "resilience4j_bulkhead_max_allowed_concurrent_calls{name=\"catalog-service\"",
                        "resilience4j_bulkhead_available_concurrent_calls{name=\"order-service\"",
                        "resilience4j_bulkhead_available_concurrent_calls{name=\"exchange-service\"",
                        "agora_client_calls_rejected_total{service=\"catalog-service\"",
                        "agora_client_calls_rejected_total{service=\"order-service\"",
                        "agora_client_pool_timeouts_total{service=\"catalog-service\"",
                        "httpcomponents_httpclient_pool_total_pending{httpclient=\"catalog-service\"",
                        "httpcomponents_httpclient_pool_total_max{httpclient=\"order-service\"",
                        // The cache, bounded by size: entries, the bound, what the bound pushed out.
                        "cache_size{cache=\"books.lookup\"",
                        "cache_evictions_total{cache=\"books.lookup\"",
                        "agora_cache_capacity{cache=\"books.lookup\"",
                        "agora_cache_capacity{cache=\"books.search\"",
                        "agora_cache_capacity{cache=\"books.files\"",
                        "executor_queued_tasks{name=\"agora.cache.lease-renewals\"",
                        // Book files streamed through: the pool per node, and transfers refused for it.
                        "httpcomponents_httpclient_pool_total_pending{httpclient=\"files\"",
                        "httpcomponents_httpclient_pool_total_max{httpclient=\"files\"",
                        "agora_files_pool_rejected_total",
                        // The pages: their loopback API pool, the live desks' streams, the web sessions.
                        "httpcomponents_httpclient_pool_total_pending{httpclient=\"public-api\"",
                        "agora_web_desk_streams ",
                        "agora_web_desk_streams_capacity",
                        "agora_web_desk_streams_rejected_total",
                        "executor_queued_tasks{name=\"agora.web.desk-streams\"",
                        "agora_web_sessions",
                        // The clock's measuring thread.
                        "executor_queued_tasks{name=\"agora.clock\"",
                        // What a client may send: bodies, rates and the rate limiters kept.
                        "agora_limits_body_rejected_total",
                        "agora_limits_rejected_total{limit=\"buys\"",
                        "agora_limits_rejected_total{limit=\"sign-in\"",
                        "agora_limits_callers{per=\"ADDRESS\"",
                        "agora_limits_callers_capacity{per=\"CALLER\"",
                        "agora_security_tokens_remembered_capacity"));
    }

    @Test
    void aFullCatalogBulkheadRefusesTheNextLookupAtOnceWith503AndCountsIt() throws Exception {
        awaitLookupAnswered(404);
        String rejected = "agora_client_calls_rejected_total{service=\"catalog-service\"";
        double rejectedBefore = metric(scrape(), rejected);

        ExecutorService callers = Executors.newFixedThreadPool(CATALOG_CALLS);
        List<CompletableFuture<Integer>> held = new ArrayList<>();
        try {
            for (int i = 0; i < CATALOG_CALLS; i++) {
                long book = HELD_FROM + i;
                held.add(CompletableFuture.supplyAsync(
                        () -> http.get(url + "/api/books/" + book).status(), callers));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (metric(scrape(), "resilience4j_bulkhead_available_concurrent_calls{name=\"catalog-service\"") > 0) {
                assertThat(System.nanoTime())
                        .as("the held lookups fill the bulkhead")
                        .isLessThan(deadline);
                Thread.sleep(50);
            }

            long started = System.nanoTime();
            Http.Response refused = http.get(url + "/api/books/1");
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            assertThat(refused.status()).isEqualTo(503);
            assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
            assertThat(refused.body()).contains("too many calls in flight");
            assertThat(took).as("refused at once, not after a timeout").isLessThan(Duration.ofSeconds(3));
            assertThat(metric(scrape(), rejected)).isEqualTo(rejectedBefore + 1);
        } finally {
            RELEASE.countDown();
        }
        for (CompletableFuture<Integer> lookup : held) {
            assertThat(lookup.get(30, TimeUnit.SECONDS))
                    .as("a held lookup, let go")
                    .isEqualTo(404);
        }
        callers.shutdownNow();
        assertThat(http.get(url + "/api/books/1").status()).as("answered again").isEqualTo(404);
    }

    private static void awaitLookupAnswered(int status) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        int last = -1;
        while (System.nanoTime() < deadline) {
            last = http.get(url + "/api/books/1").status();
            if (last == status) return;
            Thread.sleep(100);
        }
        throw new AssertionError("The frontend answered lookups " + last + ", not " + status);
    }

    private static String scrape() {
        Http.Response scrape = http.get(url + "/actuator/prometheus");
        assertThat(scrape.status()).isEqualTo(200);
        return scrape.body();
    }

    /** The value of the first sample whose line starts with {@code prefix} (a name and the start of its tags). */
    private static double metric(String scrape, String prefix) {
        Matcher sample = Pattern.compile("(?m)^" + Pattern.quote(prefix) + "[^}]*} (\\S+)$")
                .matcher(scrape);
        assertThat(sample.find()).as("a sample of " + prefix).isTrue();
        return Double.parseDouble(sample.group(1));
    }

    /** Ready, every read a 404 at once, except reads of books from HELD_FROM, held until RELEASE. */
    private static HttpServer holdingCatalog() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
            server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            server.createContext("/readyz", exchange -> {
                exchange.sendResponseHeaders(200, -1);
                exchange.close();
            });
            server.createContext("/", exchange -> {
                String path = exchange.getRequestURI().getPath();
                Matcher book = Pattern.compile("/books/(\\d+)").matcher(path);
                if (book.matches() && Long.parseLong(book.group(1)) >= HELD_FROM) {
                    try {
                        RELEASE.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                byte[] body =
                        """
                        {"type":"https://agora.dev/problems/not-found","title":"Not Found","status":404}"""
                                .getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "application/problem+json");
                exchange.sendResponseHeaders(404, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            server.start();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
