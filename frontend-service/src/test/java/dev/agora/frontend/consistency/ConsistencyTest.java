package dev.agora.frontend.consistency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.frontend.cluster.Books;
import dev.agora.frontend.cluster.BookstoreCluster;
import dev.agora.frontend.cluster.Http;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** No oversell through the frontends, and no frontend serving an old lookup once a write returned. */
class ConsistencyTest {

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
    void concurrentBuyersOfScarceStockGetExactlyTheStock() throws Exception {
        Books.assumeOrders(cluster);
        int stock = 25;
        int buyers = 75;
        long bookId = Books.register(http, cluster, "Contended", stock);
        List<Http.Response> answers = new ArrayList<>();
        CountDownLatch go = new CountDownLatch(1);
        try (ExecutorService threads = Executors.newFixedThreadPool(buyers)) {
            List<Future<Http.Response>> buys = new ArrayList<>();
            for (int i = 0; i < buyers; i++) {
                String frontend = cluster.frontend(i % 3);
                buys.add(threads.submit(() -> {
                    go.await();
                    return Books.buy(http, frontend, bookId, 1);
                }));
            }
            go.countDown();
            for (Future<Http.Response> buy : buys) answers.add(buy.get(60, TimeUnit.SECONDS));
        }

        List<Http.Response> confirmed =
                answers.stream().filter(r -> r.status() == 201).toList();
        assertThat(confirmed).hasSize(stock);
        assertThat(answers).allSatisfy(r -> assertThat(r.status()).as(r.body()).isIn(201, 409));
        Set<Long> orderIds = new HashSet<>();
        confirmed.forEach(r -> orderIds.add(r.json().get("orderId").asLong()));
        assertThat(orderIds).hasSize(stock);
        assertThat(cluster.stockAndVersion(bookId)[0]).isZero();
        for (int f = 0; f < 3; f++)
            assertThat(Books.stockSeenBy(http, cluster.frontend(f), bookId)).isZero();
    }

    @Test
    void aBuyThroughOneFrontendIsSeenByTheOtherEveryTime() {
        Books.assumeOrders(cluster);
        long bookId = Books.register(http, cluster, "Read your writes", 10_000);
        String a = cluster.frontend(0);
        String b = cluster.frontend(1);
        for (int i = 0; i < 200; i++) {
            long cachedByB = Books.stockSeenBy(http, b, bookId); // B holds the book in its cache
            Http.Response buy = Books.buy(http, a, bookId, 1);
            assertThat(buy.status()).as(buy.body()).isEqualTo(201);

            long seenByB = Books.stockSeenBy(http, b, bookId);

            assertThat(seenByB).as("iteration %d", i).isEqualTo(cachedByB - 1);
            assertThat(seenByB).isEqualTo(cluster.stockAndVersion(bookId)[0]);
        }
    }

    /** The catalog does not wait for its push to the buy's own frontend; that frontend drops the book itself. */
    @Test
    void aBuyThroughAFrontendIsSeenByThatSameFrontendEveryTime() {
        Books.assumeOrders(cluster);
        long bookId = Books.register(http, cluster, "Read your own writes", 10_000);
        String a = cluster.frontend(0);
        for (int i = 0; i < 200; i++) {
            long cachedByA = Books.stockSeenBy(http, a, bookId);
            Http.Response buy = Books.buy(http, a, bookId, 1);
            assertThat(buy.status()).as(buy.body()).isEqualTo(201);

            long seenByA = Books.stockSeenBy(http, a, bookId);

            assertThat(seenByA).as("iteration %d", i).isEqualTo(cachedByA - 1);
            assertThat(seenByA).isEqualTo(cluster.stockAndVersion(bookId)[0]);
        }
    }

    @Test
    void anAdminRestockThroughOneFrontendIsSeenByTheOtherEveryTime() {
        long bookId = Books.register(http, cluster, "Restocked", 1);
        for (int i = 0; i < 50; i++) {
            long before = Books.stockSeenBy(http, cluster.frontend(1), bookId);
            assertThat(Books.restockThrough(http, cluster.frontend(0), bookId, 3)
                            .status())
                    .isEqualTo(200);
            assertThat(Books.stockSeenBy(http, cluster.frontend(1), bookId)).isEqualTo(before + 3);
        }
    }

    /**
     * Lookups through both caching frontends race with buys and restocks of the same book for a bounded
     * time; afterwards every frontend answers what the database holds.
     */
    @Test
    void racingLookupsAndWritesLeaveNoFrontendStale() throws Exception {
        long bookId = Books.register(http, cluster, "Hammered", 1_000_000);
        boolean buys = cluster.ordersServeTheContract();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        AtomicInteger lookups = new AtomicInteger();
        AtomicInteger writes = new AtomicInteger();
        Set<Integer> unexpected = ConcurrentHashMap.newKeySet();
        try (ExecutorService threads = Executors.newFixedThreadPool(8)) {
            List<Future<?>> work = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                // frontend 2 takes the buys too: its own in-flight lookups race with the buys it answers
                String frontend = cluster.frontend(t % 3);
                work.add(threads.submit(() -> {
                    while (System.nanoTime() < until) {
                        int status = http.get(frontend + "/api/books/" + bookId).status();
                        if (status != 200) unexpected.add(status);
                        lookups.incrementAndGet();
                    }
                }));
            }
            for (int t = 0; t < 2; t++) {
                boolean buyer = t == 0 && buys;
                work.add(threads.submit(() -> {
                    while (System.nanoTime() < until) {
                        Http.Response write = buyer
                                ? Books.buy(http, cluster.frontend(2), bookId, 1)
                                : Books.restockOn(http, cluster.catalogs.get(writes.get() % 2), bookId, 1);
                        if (write.status() >= 300) unexpected.add(write.status());
                        writes.incrementAndGet();
                    }
                }));
            }
            for (Future<?> f : work) f.get(60, TimeUnit.SECONDS);
        }

        assertThat(unexpected).isEmpty();
        assertThat(writes.get()).isPositive();
        long truth = cluster.stockAndVersion(bookId)[0];
        for (int f = 0; f < 3; f++) {
            assertThat(Books.stockSeenBy(http, cluster.frontend(f), bookId))
                    .as("frontend %d after %d lookups and %d writes", f, lookups.get(), writes.get())
                    .isEqualTo(truth);
        }
    }
}
