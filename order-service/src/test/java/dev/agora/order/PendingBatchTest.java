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
 * recorded in one commit, each key of a buyer still once. To make a batch form for sure, a test holds every connection
 * of the order service's pool and sends two "plugs": the first buy, recorded on its own thread because nothing else is
 * being written, and the second, handed to the writer because the first is under way; both stall on the pool while
 * the others queue behind them.
 */
@Order(1)
class PendingBatchTest extends OrderTestSupport {

    @Autowired
    HikariDataSource database;

    @Autowired
    MeterRegistry meters;

    @Test
    void buysThatWaitedTogetherAreRecordedInOneCommitEachOnceAndAllConfirmed() throws Exception {
        long bookId = newBook(100);
        int buys = 30;
        double transactionsBefore = batches().count();

        List<Response> responses = queuedBehindAPlug(bookId, buys, i -> buy(newKey(), bookId, 1), false);

        assertThat(responses).allSatisfy(r -> assertThat(r.status()).as("%s", r).isEqualTo(201));
        assertThat(batches().count() - transactionsBefore)
                .as("the writer's transactions: the second plug's, then one for the %d buys that waited", buys)
                .isEqualTo(2);
        assertThat(responses.stream().map(Response::orderId).distinct()).hasSize(buys);
        assertThat(stock(bookId)).isEqualTo(100 - buys - 2);
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(ordersFor(bookId, "CONFIRMED"))
                .isEqualTo(buys + 2));
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
                queuedBehindAPlug(bookId, calls.size(), i -> calls.get(i).call(), true);

        assertThat(batches().count() - transactionsBefore).isEqualTo(2);
        assertThat(responses).allSatisfy(r -> assertThat(r.status()).as("%s", r).isEqualTo(201));
        assertThat(responses.get(1).orderId()).isEqualTo(responses.get(0).orderId());
        assertThat(responses.get(2).orderId()).isNotEqualTo(responses.get(0).orderId());
        assertThat(ordersWithKey(key)).isEqualTo(1);
        assertThat(stock(bookId)).isEqualTo(100 - 2 - 1 - 2);
    }

    /**
     * Holds every connection of the pool, sends two plug buys (the first records its PENDING order on its own thread,
     * the writer takes the second's; both wait for a connection), then the calls, in index order when {@code inOrder}, else all at once; once they all wait for the
     * writer, lets the pool go. Returns their responses in call order.
     */
    private List<Response> queuedBehindAPlug(long bookId, int calls, Call call, boolean inOrder) throws Exception {
        List<Connection> held = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(calls + 2)) {
            List<Future<Response>> plugs = new ArrayList<>();
            List<Future<Response>> futures = new ArrayList<>();
            try {
                // Every connection, also those the service's own threads (the sweeper's lease renewals, the outcome
                // writers) have borrowed for a moment: one given back later would let a plug through.
                while (held.size() < database.getMaximumPoolSize()) held.add(database.getConnection());
                for (int p = 1; p <= 2; p++) {
                    int stalled = p;
                    plugs.add(threads.submit(() -> buy(newKey(), bookId, 1)));
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
            for (Future<Response> plug : plugs)
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
