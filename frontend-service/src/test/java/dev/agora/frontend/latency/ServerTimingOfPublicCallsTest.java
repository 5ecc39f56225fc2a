package dev.agora.frontend.latency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.frontend.cluster.Books;
import dev.agora.frontend.cluster.BookstoreCluster;
import dev.agora.frontend.cluster.Http;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The public calls through a frontend, one client, each answered as it should be and timed by the frontend itself: a
 * {@code Server-Timing} total on every answer, and the cache taking the part it should (a hit on the caching
 * frontend, "off" on the one without a cache). How fast they are is perf's to measure (its bookstore experiments and
 * {@code compare}), not a test's: timings under a test run's load say nothing.
 */
class ServerTimingOfPublicCallsTest {

    private static final Pattern TOTAL = Pattern.compile("total;dur=([0-9.]+)");
    /** Calls per kind: enough to see every answer of a warm path, not a measurement. */
    private static final int CALLS = 50;

    private static BookstoreCluster cluster;
    private static Http http;

    @BeforeAll
    static void start() {
        cluster = BookstoreCluster.get();
        http = new Http();
    }

    @AfterAll
    static void closeClient() throws Exception {
        http.close();
    }

    @Test
    void cachedLookupsAreHitsOnTheCachingFrontend() {
        String url = cluster.frontend(0) + "/api/books/1";
        callRepeatedly(() -> {
            Http.Response r = http.get(url);
            assertThat(r.status()).isEqualTo(200);
            return r;
        });
        assertThat(http.get(url).header("Server-Timing")).contains("cache;desc=hit");
    }

    @Test
    void lookupsOnTheFrontendWithoutACacheSayCacheOff() {
        String url = cluster.frontend(2) + "/api/books/1";
        callRepeatedly(() -> {
            Http.Response r = http.get(url);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("Server-Timing")).contains("cache;desc=off");
            return r;
        });
    }

    @Test
    void searchesOnTheFrontendWithoutACacheAreAnswered() {
        String url = cluster.frontend(2) + "/api/books?topic=graduate%20school";
        callRepeatedly(() -> {
            Http.Response r = http.get(url);
            assertThat(r.status()).isEqualTo(200);
            return r;
        });
    }

    @Test
    void buysAreAnsweredCreated() {
        Books.assumeOrders(cluster);
        long bookId = Books.register(http, cluster, "Timing", 1_000);
        String frontend = cluster.frontend(2);
        callRepeatedly(() -> {
            Http.Response r = Books.buy(http, frontend, bookId, 1);
            assertThat(r.status()).as(r.body()).isEqualTo(201);
            return r;
        });
    }

    /**
     * Earlier test classes kill and restart catalogs of the shared cluster; these calls start from a cluster that
     * serves again. Failover itself is proven by the failover tests, which assert on every request.
     */
    private static void awaitServing(Supplier<Http.Response> call) {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                call.get();
                return;
            } catch (AssertionError notYet) {
                if (System.nanoTime() > deadline) throw notYet;
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw notYet;
                }
            }
        }
    }

    /** The call, {@link #CALLS} times; every answer carries the frontend's own timing of it. */
    private static void callRepeatedly(Supplier<Http.Response> call) {
        awaitServing(call);
        for (int i = 0; i < CALLS; i++) {
            Http.Response response = call.get();
            Matcher total = TOTAL.matcher(String.valueOf(response.header("Server-Timing")));
            assertThat(total.find())
                    .as("Server-Timing of %s", response.header("Server-Timing"))
                    .isTrue();
            assertThat(Double.parseDouble(total.group(1))).isPositive();
        }
    }
}
