package dev.agora.frontend.latency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.frontend.cluster.Books;
import dev.agora.frontend.cluster.BookstoreCluster;
import dev.agora.frontend.cluster.Http;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Latency of the public calls through a frontend on loopback, one client, measured (not asserted: the
 * figures depend on the machine and its load) and written to {@code target/latency-report.txt}. What is
 * asserted is that every call succeeded and the cache took the part it should.
 */
class LatencyTest {

    private static final Pattern TOTAL = Pattern.compile("total;dur=([0-9.]+)");
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
    void cachedLookup() {
        String url = cluster.frontend(0) + "/api/books/1";
        measure("cached lookup (frontend A)", 3_000, () -> {
            Http.Response r = http.get(url);
            assertThat(r.status()).isEqualTo(200);
            return r;
        });
        assertThat(http.get(url).header("Server-Timing")).contains("cache;desc=hit");
    }

    @Test
    void uncachedLookup() {
        String url = cluster.frontend(2) + "/api/books/1";
        measure("uncached lookup (frontend C)", 1_500, () -> {
            Http.Response r = http.get(url);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("Server-Timing")).contains("cache;desc=off");
            return r;
        });
    }

    @Test
    void uncachedSearch() {
        String url = cluster.frontend(2) + "/api/books?topic=graduate%20school";
        measure("uncached search (frontend C)", 1_500, () -> {
            Http.Response r = http.get(url);
            assertThat(r.status()).isEqualTo(200);
            return r;
        });
    }

    @Test
    void buy() {
        Books.assumeOrders(cluster);
        long bookId = Books.register(http, cluster, "Latency", 100_000);
        String frontend = cluster.frontend(2);
        measure("buy (frontend C)", 500, () -> {
            Http.Response r = Books.buy(http, frontend, bookId, 1);
            assertThat(r.status()).as(r.body()).isEqualTo(201);
            return r;
        });
    }

    /**
     * Earlier test classes kill and restart catalogs of the shared cluster; a latency figure starts from a cluster
     * that serves again. Failover itself is proven by the failover tests, which assert on every request.
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

    private static void measure(String name, int count, Supplier<Http.Response> call) {
        awaitServing(call);
        for (int i = 0; i < Math.min(count, 300); i++) call.get(); // warm-up
        long[] client = new long[count];
        long[] server = new long[count];
        for (int i = 0; i < count; i++) {
            long started = System.nanoTime();
            Http.Response response = call.get();
            client[i] = System.nanoTime() - started;
            Matcher total = TOTAL.matcher(String.valueOf(response.header("Server-Timing")));
            assertThat(total.find()).isTrue();
            server[i] = (long) (Double.parseDouble(total.group(1)) * 1_000_000);
        }
        Arrays.sort(client);
        Arrays.sort(server);
        String line = String.format(
                "%-30s n=%d  client p50 %.3f ms p99 %.3f ms | frontend Server-Timing total p50 %.3f ms p99 %.3f ms",
                name, count, millis(client, 50), millis(client, 99), millis(server, 50), millis(server, 99));
        System.out.println("[latency] " + line);
        try {
            Path file = Path.of("target", "latency-report.txt");
            Files.createDirectories(file.getParent());
            Files.writeString(
                    file, line + System.lineSeparator(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static double millis(long[] sorted, int p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)] / 1_000_000.0;
    }
}
