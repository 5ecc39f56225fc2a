package dev.agora.order;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Group commit of PENDING orders (order-service/README.md, "Data tier"): buys that wait while the writer is busy are
 * recorded in one commit, each key of a buyer still once, and two buys at once each record their own. To make a
 * batch form for sure, a test holds every connection of the order service's pool and sends {@value #PLUGS} "plugs":
 * the first buy, recorded on its own thread because nothing else is being written, the second, recorded on its own
 * thread beside the first, and the third, handed to the writer because two are under way; all stall on the pool while
 * the others queue behind them.
 */
@Order(1)
class PendingBatchTest extends OrderTestSupport {

    private static final int PLUGS = 3;

    @Autowired
    HikariDataSource database;

    @Autowired
    MeterRegistry meters;

    @Test
    void buysThatWaitedTogetherAreRecordedInOneCommitEachOnceAndAllConfirmed() throws Exception {
        long bookId = newBook(100);
        int buys = 30;
        double transactionsBefore = batches().count();

        List<Response> responses = queuedBehindPlugs(bookId, PLUGS, buys, i -> buy(newKey(), bookId, 1), false);

        assertThat(responses).allSatisfy(r -> assertThat(r.status()).as("%s", r).isEqualTo(201));
        assertThat(batches().count() - transactionsBefore)
                .as("the writer's transactions: the third plug's, then one for the %d buys that waited", buys)
                .isEqualTo(2);
        assertThat(responses.stream().map(Response::orderId).distinct()).hasSize(buys);
        assertThat(stock(bookId)).isEqualTo(100 - buys - PLUGS);
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(ordersFor(bookId, "CONFIRMED"))
                .isEqualTo(buys + PLUGS));
    }

    @Test
    void aKeySentTwiceIntoOneBatchIsOneOrder() throws Exception {
        long bookId = newBook(100);
        String key = newKey();
        String other = newKey();
        List<Callable<Response>> calls =
                List.of(() -> buy(key, bookId, 2), () -> buy(key, bookId, 2), () -> buy(other, bookId, 1));
        double transactionsBefore = batches().count();

        List<Response> responses =
                queuedBehindPlugs(bookId, PLUGS, calls.size(), i -> calls.get(i).call(), true);

        assertThat(batches().count() - transactionsBefore).isEqualTo(2);
        assertThat(responses).allSatisfy(r -> assertThat(r.status()).as("%s", r).isEqualTo(201));
        assertThat(responses.get(1).orderId()).isEqualTo(responses.get(0).orderId());
        assertThat(responses.get(2).orderId()).isNotEqualTo(responses.get(0).orderId());
        assertThat(ordersWithKey(key)).isEqualTo(1);
        assertThat(stock(bookId)).isEqualTo(100 - 2 - 1 - PLUGS);
    }

    /**
     * Handed to a writer that has nothing else to write, the second of two buys at once would be recorded alone
     * anyway, after two hand-offs between threads: it records its own beside the first, and the writer records none.
     */
    @Test
    void twoBuysAtOnceEachRecordTheirOwnOrder() throws Exception {
        long bookId = newBook(100);
        double transactionsBefore = batches().count();

        queuedBehindPlugs(bookId, 2, 0, i -> null, false);

        assertThat(batches().count() - transactionsBefore)
                .as("the writer's transactions for two buys at once")
                .isZero();
        assertThat(stock(bookId)).isEqualTo(100 - 2);
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(ordersFor(bookId, "CONFIRMED"))
                .isEqualTo(2));
    }

    /**
     * Holds every connection of the pool, sends {@code plugs} buys one after the other, each waiting for a connection
     * before the next is sent (see the class comment for who records which), then the calls, in index order when
     * {@code inOrder}, else all at once; once they all wait for the writer, lets the pool go. Checks that every plug
     * bought; returns the calls' responses in call order.
     */
    private List<Response> queuedBehindPlugs(long bookId, int plugs, int calls, Call call, boolean inOrder)
            throws Exception {
        List<Connection> held = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(plugs + calls)) {
            List<Future<Response>> plugged = new ArrayList<>();
            List<Future<Response>> futures = new ArrayList<>();
            try {
                // Every connection, also those the service's own threads (the sweeper's lease renewals, the outcome
                // writers) have borrowed for a moment: one given back later would let a plug through.
                while (held.size() < database.getMaximumPoolSize()) held.add(database.getConnection());
                for (int p = 1; p <= plugs; p++) {
                    int stalled = p;
                    plugged.add(threads.submit(() -> buy(newKey(), bookId, 1)));
                    awaitUntil(() -> database.getHikariPoolMXBean().getThreadsAwaitingConnection() >= stalled);
                }
                for (int i = 0; i < calls; i++) {
                    int index = i;
                    futures.add(threads.submit(() -> call.run(index)));
                    if (inOrder) awaitUntil(() -> waiting() >= index + 1);
                }
                awaitUntil(() -> waiting() >= calls);
            } finally {
                for (Connection connection : held) close(connection);
            }
            for (Future<Response> plug : plugged)
                assertThat(plug.get(60, TimeUnit.SECONDS).status()).isEqualTo(201);
            List<Response> responses = new ArrayList<>();
            for (Future<Response> future : futures) responses.add(future.get(60, TimeUnit.SECONDS));
            return responses;
        }
    }

    private static void awaitUntil(Callable<Boolean> condition) {
        // Well within the pool's connection timeout, which would fail the plug's transaction.
        Awaitility.await()
                .atMost(Duration.ofSeconds(3))
                .pollInterval(Duration.ofMillis(5))
                .until(condition);
    }

    private static void close(Connection connection) {
        try {
            connection.close();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private double waiting() {
        return meters.get("agora.orders.pending.waiting").gauge().value();
    }

    private DistributionSummary batches() {
        return meters.get("agora.orders.pending.batch").summary();
    }
}
