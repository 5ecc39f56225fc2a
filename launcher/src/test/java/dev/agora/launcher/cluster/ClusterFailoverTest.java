package dev.agora.launcher.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

/**
 * Issue 5 against real processes: replicas of catalog and order are SIGKILLed, SIGSTOPped and restarted under a
 * concurrent load of lookups and buys through both frontends. No client request may fail, nothing is oversold,
 * every confirmed buy is in the order log exactly once and the catalog's stock agrees. Last, the exchange standby
 * takes over from a killed active exchange.
 */
@ClusterTest
// Part of the full build (launcher/pom.xml sets agora.failover-tests=true); -Dagora.failover-tests=false skips it.
// It once failed 2 of ~4,000 buys when a catalog and an order replica were frozen at once: the frontend's
// order timeout (3 s) was shorter than what an order replica could spend on a frozen catalog. The timeouts
// now nest and idempotent calls are hedged (frontend-service/README.md, "Timeout budget"). On the shared cluster it
// failed 4 lookups: catalog-2, frozen inside reservations of a hot book, held the book's row, catalog-1's reservations
// waiting for it filled catalog-1's pool and its lookups timed out. A catalog now waits at most 1 s for a row lock and
// answers 503 not-applied, which the order service sends again (catalog-service/README.md, "Data tier").
@EnabledIfSystemProperty(named = "agora.failover-tests", matches = "true")
@ExtendWith(SharedCluster.Resolver.class)
// After ClusterEndToEndTest, last: the tier-down case leaves catalog-2 and order-2 down and the exchange standby case,
// last, the active exchange killed, which no class after it would need (SharedCluster restarts them for one).
@Order(2)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterFailoverTest {

    private static final int LOAD_THREADS = 8;
    private static final double BUY_SHARE = 0.3;
    private static final Duration THINK_TIME = Duration.ofMillis(20);
    private static final long PLENTY = 1_000_000;
    private static final long SCARCE = 40;
    /** How long the XML port may stay closed while the standby takes over the lease. */
    private static final Duration TAKEOVER = Duration.ofSeconds(15);

    private final Http http = new Http(Duration.ofSeconds(10));
    private Cluster cluster;
    private ControlServer control;
    private ControlClient faults;
    private Bookstore bookstore;

    @BeforeAll
    void useTheSharedCluster(SharedCluster shared) throws IOException {
        cluster = shared.cluster();
        // Faults go through the control endpoint, as an experiment in another process would send them.
        String token = ControlToken.create(shared.dataDirectory());
        control = ControlServer.start(cluster, shared.spec().controlPort(), token);
        faults = new ControlClient(control.port(), token);
        bookstore = new Bookstore(cluster, http);
    }

    @AfterAll
    void stopControl() {
        if (control != null) control.close();
    }

    @Test
    @Order(1)
    void killingOneReplicaOfEachTierUnderLoadFailsNoRequest() throws Exception {
        Books books = registerBooks("kill");
        long catalogPid = pidOf("catalog-2");
        long orderPid = pidOf("order-2");
        try (BookstoreLoad load = startLoad(books)) {
            load.runFor(Duration.ofSeconds(4));
            faults.kill("catalog-2");
            faults.kill("order-2");
            assertThat(cluster.instances())
                    .filteredOn(instance -> instance.pid() < 0)
                    .extracting(Instance::name)
                    .containsExactlyInAnyOrder("catalog-2", "order-2");
            load.runFor(Duration.ofSeconds(5));
            // The control endpoint's restart answers once the instance is ready, and runs a new process.
            assertThat(restartInParallel("catalog-2", "order-2"))
                    .allSatisfy(ready -> assertThat(ready).isPositive());
            assertThat(pidOf("catalog-2")).isPositive().isNotEqualTo(catalogPid);
            assertThat(pidOf("order-2")).isPositive().isNotEqualTo(orderPid);
            load.runFor(Duration.ofSeconds(6));
            load.close();
            assertNoFailures(load);
            assertBooksConsistent(books, load);
        }
        assertThat(bookstore.applicationRequestsServed(bookstore.catalog(2)))
                .as("the restarted catalog-2 serves traffic again")
                .isPositive();
        assertThat(bookstore.applicationRequestsServed(bookstore.order(2)))
                .as("the restarted order-2 serves traffic again")
                .isPositive();
    }

    @Test
    @Order(2)
    void freezingOneReplicaOfEachTierUnderLoadFailsNoRequest() throws Exception {
        Books books = registerBooks("freeze");
        try (BookstoreLoad load = startLoad(books)) {
            load.runFor(Duration.ofSeconds(4));
            faults.freeze("catalog-2");
            faults.freeze("order-2");
            load.runFor(Duration.ofSeconds(8));
            faults.thaw("catalog-2");
            faults.thaw("order-2");
            // Requests caught in flight by the freeze complete after the thaw; count only what comes after them.
            load.runFor(Duration.ofSeconds(2));
            long catalogServed = bookstore.applicationRequestsServed(bookstore.catalog(2));
            long orderServed = bookstore.applicationRequestsServed(bookstore.order(2));
            load.runFor(Duration.ofSeconds(6));
            assertThat(bookstore.applicationRequestsServed(bookstore.catalog(2)))
                    .as("the thawed catalog-2 serves traffic again")
                    .isGreaterThan(catalogServed);
            assertThat(bookstore.applicationRequestsServed(bookstore.order(2)))
                    .as("the thawed order-2 serves traffic again")
                    .isGreaterThan(orderServed);
            load.close();
            assertNoFailures(load);
            assertBooksConsistent(books, load);
        }
    }

    @Test
    @Order(3)
    void aWholeTierDownAnswersQuickly503AndServiceResumesWhenAReplicaReturns() throws Exception {
        // Never looked up before, so no frontend can answer it from its cache.
        long unseen = bookstore.registerBook("Unseen " + UUID.randomUUID(), "outage", "9.99", 100);
        String frontend = bookstore.frontend(1);

        faults.kill("catalog-1");
        faults.kill("catalog-2");
        Http.Reply lookup = bookstore.lookup(frontend, unseen);
        assertThat(lookup.status())
                .as("lookup with every catalog down: %s", lookup)
                .isEqualTo(503);
        assertThat(lookup.isProblem()).as("problem+json: %s", lookup).isTrue();
        assertThat(lookup.elapsed()).as("answered quickly, not after hanging").isLessThan(Duration.ofSeconds(2));

        faults.kill("order-1");
        faults.kill("order-2");
        Http.Reply buy = bookstore.buy(frontend, unseen);
        assertThat(buy.status())
                .as("buy with every order replica down: %s", buy)
                .isEqualTo(503);
        assertThat(buy.isProblem()).as("problem+json: %s", buy).isTrue();
        assertThat(buy.elapsed()).as("answered quickly, not after hanging").isLessThan(Duration.ofSeconds(2));

        restartInParallel("catalog-1", "order-1");
        Http.Reply resumedLookup = awaitStatus(() -> bookstore.lookup(frontend, unseen), 200);
        assertThat(resumedLookup.json().path("stock").asLong()).isEqualTo(100);
        Http.Reply resumedBuy = awaitStatus(() -> bookstore.buy(frontend, unseen), 201);
        assertThat(resumedBuy.json().path("status").asString()).isEqualTo("CONFIRMED");
        // catalog-2 and order-2 stay down: the kill case has proved restarts, and SharedCluster restarts them for a
        // class that runs after this one.
    }

    /**
     * The launcher's exchange standby: the active exchange is killed, the standby takes the lease, listens on its own
     * XML port and serves the state the killed one acknowledged, and the frontends send the JSON API to it (they
     * follow the ready instance). Last of the cluster tests, since it leaves the cluster with one exchange: in
     * ClusterEndToEndTest, which it once ended, it left the exchange killed for this class, whose SharedCluster then
     * restarted it for nothing (no case here uses the exchange).
     */
    @Test
    @Order(4)
    void theExchangeStandbyTakesOverWhenTheActiveOneIsKilled() throws Exception {
        String account = Long.toString(ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE));
        XmlClient.Reply created = XmlClient.sendToActive(
                cluster.exchangeTcpPorts(),
                "<create><account id=\"" + account + "\" balance=\"5\"/></create>",
                TAKEOVER);
        assertThat(created.xml()).contains("<created id=\"" + account + "\"/>");

        // Usually exchange-1; exchange-2 if it took the lease earlier (see XmlClient#sendToActive).
        int active = created.instance();
        int standby = active == 1 ? 2 : 1;
        cluster.kill("exchange-" + active);
        int standbyPort = cluster.exchangeTcpPorts().get(standby - 1);
        String reply = "";
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline && !reply.contains("account already exists")) {
            try {
                reply = XmlClient.send(standbyPort, "<create><account id=\"" + account + "\" balance=\"5\"/></create>");
            } catch (IOException notListeningYet) {
                Thread.sleep(20);
            }
        }
        assertThat(reply)
                .as("exchange-%d knows what exchange-%d acknowledged", standby, active)
                .contains("account already exists");
        Http.Reply viaFrontend = null;
        while (System.nanoTime() < deadline && (viaFrontend == null || viaFrontend.status() != 200)) {
            viaFrontend = http.get(
                    bookstore.frontend(1) + "/api/exchange/accounts/" + account, "Authorization", bookstore.admin());
            if (viaFrontend.status() != 200) Thread.sleep(100);
        }
        assertThat(viaFrontend.status())
                .as("through the frontend: %s", viaFrontend)
                .isEqualTo(200);
    }

    private record Books(long plenty, long scarce) {}

    private Books registerBooks(String label) throws IOException, InterruptedException {
        return new Books(
                bookstore.registerBook("Plenty " + label + " " + UUID.randomUUID(), "failover", "12.50", PLENTY),
                bookstore.registerBook("Scarce " + label + " " + UUID.randomUUID(), "failover", "7.25", SCARCE));
    }

    private BookstoreLoad startLoad(Books books) {
        return new BookstoreLoad(
                bookstore,
                cluster.urls("frontend"),
                List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, books.plenty(), books.scarce()),
                List.of(books.plenty(), books.plenty(), books.plenty(), books.scarce()),
                LOAD_THREADS,
                BUY_SHARE,
                THINK_TIME);
    }

    /** Restarts the instances through the control endpoint at once; how long each took to be ready. */
    private List<Duration> restartInParallel(String... instances) {
        return Cluster.inParallel(List.of(instances), faults::restart);
    }

    private long pidOf(String instance) {
        return cluster.instances().stream()
                .filter(candidate -> candidate.name().equals(instance))
                .findFirst()
                .orElseThrow()
                .pid();
    }

    private static void assertNoFailures(BookstoreLoad load) {
        assertThat(load.failures.get())
                .as("failed requests: %s", load.summary())
                .isZero();
        assertThat(load.lookups.get()).as("lookups served: %s", load.summary()).isPositive();
        assertThat(load.confirmed).as("buys confirmed: %s", load.summary()).isNotEmpty();
    }

    /**
     * The order log holds exactly the buys clients saw confirmed, each once, and the catalog's stock is the initial
     * stock minus them; the scarce book is sold out exactly, never oversold.
     */
    private void assertBooksConsistent(Books books, BookstoreLoad load) throws IOException, InterruptedException {
        Map<Long, JsonNode> log = bookstore.allOrders(bookstore.order(1));
        for (long book : List.of(books.plenty(), books.scarce())) {
            Set<Long> confirmedByClients = load.confirmed.entrySet().stream()
                    .filter(entry -> entry.getValue() == book)
                    .map(Map.Entry::getKey)
                    .collect(Collectors.toSet());
            Set<Long> confirmedInLog = log.values().stream()
                    .filter(order -> order.path("bookId").asLong() == book)
                    .filter(order -> "CONFIRMED".equals(order.path("status").asString()))
                    .map(order -> order.path("orderId").asLong())
                    .collect(Collectors.toSet());
            assertThat(confirmedInLog)
                    .as("confirmed orders of book %d in the order log", book)
                    .isEqualTo(confirmedByClients);
            long initial = book == books.plenty() ? PLENTY : SCARCE;
            assertThat(bookstore.catalogBook(book).path("stock").asLong())
                    .as("stock of book %d", book)
                    .isEqualTo(initial - confirmedByClients.size());
        }
        long scarceSold = load.confirmed.values().stream()
                .filter(book -> book == books.scarce())
                .count();
        assertThat(scarceSold).as("never oversold").isLessThanOrEqualTo(SCARCE);
        if (load.outOfStock.get() > 0) {
            assertThat(scarceSold).as("sold out exactly before refusing").isEqualTo(SCARCE);
        }
    }

    @FunctionalInterface
    private interface Call {
        Http.Reply send() throws IOException, InterruptedException;
    }

    /**
     * Repeats a call until it gets the status, for at most 30 s after the replica was ready. A call that times out
     * (the restarted replica's first requests on a loaded machine) is one more that did not get it yet, not a failure.
     */
    private static Http.Reply awaitStatus(Call call, int status) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            Http.Reply reply = null;
            try {
                reply = call.send();
            } catch (HttpTimeoutException timedOut) {
                if (System.nanoTime() >= deadline) throw timedOut;
            }
            if (reply != null && (reply.status() == status || System.nanoTime() >= deadline)) {
                assertThat(reply.status())
                        .as("service resumed by itself: %s", reply)
                        .isEqualTo(status);
                return reply;
            }
            Thread.sleep(200);
        }
    }
}
