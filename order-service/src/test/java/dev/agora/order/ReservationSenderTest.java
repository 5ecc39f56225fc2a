package dev.agora.order;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.local.postgres.PostgresServer;
import dev.agora.local.postgres.SharedPostgres;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Reservations sent to the catalog in batches (order-service/README.md, "What a buy costs"): buys that find two
 * catalog calls under way hand their reservation to the sender thread, which sends every one waiting in one
 * {@code POST /internal/reservations/batch}. To hold the catalog for sure, the test locks book rows in the real
 * catalogs' database (a replica frozen inside a transaction). Each step waits for what the one before it must have
 * brought about, seen in the catalogs' database or the sender's meters, never for a stretch of time: the catalogs'
 * lock timeout (1 s, three attempts) bounds how long a buy's own call may stall, so the steps that must happen inside
 * it start from buys already sent and authenticated, held at the order service until their body's last byte.
 */
@Order(2)
class ReservationSenderTest extends OrderTestSupport {

    private static final HttpClient HELD = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();

    @Autowired
    MeterRegistry meters;

    /**
     * Two plugs buy another book, whose row is locked: their own calls stall at the catalog, so the third buy, of the
     * sold book (locked too), is handed to the sender, whose call stalls in turn while the queued buys gather behind
     * it. The plugs' row is let go once every queued buy waits for the sender; the sold book's once the third buy's
     * entry came back unanswered (decided alone at the catalog, it outwaited the lock timeout: 503).
     */
    @Test
    void buysThatWaitedForTheCatalogAreSentInOneBatchAndAnEntryItDidNotAnswerIsSentAlone() throws Exception {
        int copies = 10;
        int queued = 12;
        long plugBook = newBook(2);
        long bookId = newBook(copies);
        // Every step below runs inside a lock timeout's bound: not the first buy of this JVM's order service.
        assertThat(buy(newKey(), newBook(1), 1).status()).isEqualTo(201);
        double callsBefore = batches().count();
        double sentBefore = batches().totalAmount();
        List<HeldBuy> plugs = new ArrayList<>();
        List<HeldBuy> buys = new ArrayList<>();
        try (RowLock plugRow = RowLock.of(plugBook);
                RowLock soldRow = RowLock.of(bookId)) {
            double busyBefore = busyRequestThreads();
            plugs.addAll(List.of(hold(plugBook), hold(plugBook), hold(bookId)));
            for (int i = 0; i < queued; i++) buys.add(hold(bookId));
            await(
                    "every buy at the order service, waiting for its body's last byte",
                    () -> busyRequestThreads() >= busyBefore + plugs.size() + queued);

            plugs.get(0).release();
            await("the first plug's own call waiting for its row", () -> plugRow.waiters() >= 1);
            plugs.get(1).release();
            await("both plugs' own calls waiting for their row", () -> plugRow.waiters() >= 2);
            plugs.get(2).release();
            // Recovery may have sent a plug's stalled order in a call of its own before (older than its min-age): the
            // third buy's call is the first to wait for the sold book's row, and what that one leaves unanswered
            // counts from here.
            await(
                    "the third buy's reservation in a call of the sender's, waiting for the sold book's row",
                    () -> batches().count() > callsBefore && soldRow.waiters() >= 1);
            double notAnsweredBefore = handedBack("not-answered");
            buys.forEach(HeldBuy::release);
            await("every queued buy handed to the sender, behind the third buy's call", () -> waiting() >= queued);
            plugRow.release();
            // The third buy's call: the catalog's batch gave up on the locked row, then the reservation, decided alone,
            // outwaited the catalog's lock timeout and was answered 503: handed back to its buy.
            await("the third buy's entry handed back", () -> handedBack("not-answered") > notAnsweredBefore);
            soldRow.release();
        } finally {
            // A failed step leaves no request thread waiting for a body.
            Stream.concat(plugs.stream(), buys.stream()).forEach(HeldBuy::release);
        }
        List<Response> plugged = new ArrayList<>();
        for (HeldBuy plug : plugs.subList(0, 2)) plugged.add(plug.response());
        List<Response> responses = new ArrayList<>();
        responses.add(plugs.get(2).response());
        for (HeldBuy buy : buys) responses.add(buy.response());

        assertThat(plugged).allSatisfy(r -> assertThat(r.status()).as("%s", r).isEqualTo(201));
        assertThat(stock(plugBook)).isZero();
        int all = 1 + queued;
        List<Response> confirmed =
                responses.stream().filter(r -> r.status() == 201).toList();
        assertThat(confirmed).hasSize(copies);
        assertThat(Stream.concat(plugged.stream(), confirmed.stream())).allSatisfy(r -> {
            assertThat(r.json().path("status").asString()).isEqualTo("CONFIRMED");
            assertThat(new BigDecimal(r.json().path("total").asString())).isEqualByComparingTo("12.50");
        });
        assertThat(Stream.concat(plugged.stream(), confirmed.stream())
                        .map(Response::orderId)
                        .distinct())
                .hasSize(plugged.size() + copies);
        assertThat(responses.stream().filter(r -> r.status() == 409))
                .as("out of stock")
                .hasSize(all - copies);
        assertThat(stock(bookId)).isZero();
        // The recovery sweeper may also resend a stalled buy's reservation (older than its min-age) through the
        // sender, beside the buys: at most one more call, and one more reservation per stalled buy.
        int handedOver = plugs.size() - 2 + queued;
        assertThat(batches().count() - callsBefore)
                .as("the sender's calls: the handed-over buy's, then one for the %d that waited", queued)
                .isBetween(2.0, 3.0);
        assertThat(batches().totalAmount() - sentBefore)
                .as("every buy but the two that called alone (a stalled one may have been resent by recovery)")
                .isBetween((double) handedOver, (double) handedOver + plugs.size());
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(ordersFor(plugBook, "CONFIRMED")).isEqualTo(plugged.size());
            assertThat(ordersFor(bookId, "CONFIRMED")).isEqualTo(copies);
            assertThat(ordersFor(bookId, "REJECTED")).isEqualTo(all - copies);
        });
    }

    /**
     * A buy of one copy sent now but for its body's last byte, which {@link HeldBuy#release} sends: the order service
     * takes the request (and checks its token) at once, then waits for the body on a request thread.
     */
    private HeldBuy hold(long bookId) {
        byte[] body = """
                {"bookId":%d,"quantity":1}"""
                .formatted(bookId)
                .getBytes(StandardCharsets.UTF_8);
        HeldBody held = new HeldBody(body);
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/orders"))
                .timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", newKey())
                .header(AUTHORIZATION, Tokens.customer(BUYER))
                .POST(HttpRequest.BodyPublishers.fromPublisher(held, body.length))
                .build();
        return new HeldBuy(held, HELD.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
    }

    record HeldBuy(HeldBody body, CompletableFuture<HttpResponse<String>> sent) {

        void release() {
            body.release();
        }

        Response response() throws Exception {
            HttpResponse<String> response = sent.get(60, TimeUnit.SECONDS);
            return new Response(
                    response.statusCode(),
                    response.headers().firstValue("Content-Type").orElse(""),
                    response.body().isEmpty() ? JSON.missingNode() : JSON.readTree(response.body()),
                    "");
        }
    }

    /** A request body published in two parts: all but its last byte at once, that byte on {@link #release}. */
    static final class HeldBody implements Flow.Publisher<ByteBuffer> {

        private final byte[] body;
        private final Queue<ByteBuffer> ready = new ArrayDeque<>();
        private Flow.Subscriber<? super ByteBuffer> subscriber;
        private long demand;
        private boolean released;
        private boolean completed;

        HeldBody(byte[] body) {
            this.body = body;
            ready.add(ByteBuffer.wrap(body, 0, body.length - 1));
        }

        @Override
        public synchronized void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
            this.subscriber = subscriber;
            subscriber.onSubscribe(new Flow.Subscription() {
                @Override
                public void request(long n) {
                    synchronized (HeldBody.this) {
                        demand += n;
                        deliver();
                    }
                }

                @Override
                public void cancel() {}
            });
        }

        synchronized void release() {
            if (released) return;
            released = true;
            ready.add(ByteBuffer.wrap(body, body.length - 1, 1));
            deliver();
        }

        /** Hands the subscriber what it asked for and is ready (a send publishes its body once). */
        private void deliver() {
            if (subscriber == null || completed) return;
            while (demand > 0 && !ready.isEmpty()) {
                demand--;
                subscriber.onNext(ready.poll());
            }
            if (released && ready.isEmpty() && !completed) {
                completed = true;
                subscriber.onComplete();
            }
        }
    }

    /**
     * A book's row locked in the catalogs' database by a transaction of the test's own, as by a catalog replica frozen
     * inside one, until {@link #release}; {@link #waiters} counts the sessions waiting for it.
     */
    record RowLock(Connection holder, Connection monitor, int holderPid) implements AutoCloseable {

        static RowLock of(long bookId) throws SQLException {
            Connection holder = connect();
            Connection monitor = connect();
            holder.setAutoCommit(false);
            try (Statement lock = holder.createStatement()) {
                lock.execute("SET LOCAL idle_in_transaction_session_timeout = 0");
                lock.executeQuery("SELECT id FROM books WHERE id = " + bookId + " FOR UPDATE")
                        .close();
                try (ResultSet pid = lock.executeQuery("SELECT pg_backend_pid()")) {
                    pid.next();
                    return new RowLock(holder, monitor, pid.getInt(1));
                }
            }
        }

        private static Connection connect() throws SQLException {
            PostgresServer postgres = SharedPostgres.get();
            return DriverManager.getConnection(
                    postgres.jdbcUrl("catalog_it"), postgres.username(), postgres.password());
        }

        int waiters() throws SQLException {
            // The first waiter waits for the holder, the next ones for the first (the row's tuple lock): the chain.
            try (PreparedStatement blocked = monitor.prepareStatement(
                    """
                    WITH RECURSIVE waiting(pid) AS (
                        SELECT pid FROM pg_stat_activity WHERE ? = ANY (pg_blocking_pids(pid))
                        UNION
                        SELECT a.pid FROM pg_stat_activity a JOIN waiting w ON w.pid = ANY (pg_blocking_pids(a.pid)))
                    SELECT count(*) FROM waiting""")) {
                blocked.setInt(1, holderPid);
                try (ResultSet count = blocked.executeQuery()) {
                    count.next();
                    return count.getInt(1);
                }
            }
        }

        void release() throws SQLException {
            if (!holder.isClosed() && !holder.getAutoCommit()) {
                holder.rollback();
                holder.setAutoCommit(true);
            }
        }

        @Override
        public void close() throws SQLException {
            try (holder;
                    monitor) {
                release();
            }
        }
    }

    private static void await(String what, Callable<Boolean> condition) {
        Awaitility.await(what)
                .atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(10))
                .until(condition);
    }

    private double busyRequestThreads() {
        Gauge busy = meters.find("tomcat.threads.busy").gauge();
        if (busy == null) throw new IllegalStateException("No tomcat.threads.busy meter");
        return busy.value();
    }

    private double waiting() {
        return meters.get("agora.orders.reservations.waiting").gauge().value();
    }

    private DistributionSummary batches() {
        return meters.get("agora.orders.reservations.batch").summary();
    }

    private double handedBack(String reason) {
        Counter counter = meters.find("agora.orders.reservations.alone")
                .tag("reason", reason)
                .counter();
        return counter == null ? 0 : counter.count();
    }
}
