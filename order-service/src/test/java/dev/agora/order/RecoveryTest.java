package dev.agora.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * Orders a crash left PENDING, at either point of the saga, are driven to a final state by the recovery
 * sweeper, and the catalog's stock agrees with the outcome (taken exactly once or not at all).
 */
@Order(2)
@ExtendWith(OutputCaptureExtension.class)
class RecoveryTest extends OrderTestSupport {

    @Test
    void anOrderThatDiedBeforeReachingTheCatalogIsConfirmedAndTakesStock() {
        long bookId = newBook(5);

        long orderId = pendingOrderAsLeftByACrash(bookId, 2);

        awaitFinal(orderId);
        assertThat(status(orderId)).isEqualTo("CONFIRMED");
        assertThat(stock(bookId)).isEqualTo(3);
    }

    @Test
    void anOrderThatDiedAfterTheCatalogReservedIsConfirmedWithoutTakingStockTwice() {
        long bookId = newBook(5);
        long orderId = pendingOrderAsLeftByACrash(bookId, 2);

        // The crash came after the catalog committed the reservation and before the order was finished.
        assertThat(reserveDirectly(orderId, bookId, 2).json().path("outcome").asString())
                .isEqualTo("RESERVED");
        assertThat(stock(bookId)).isEqualTo(3);

        awaitFinal(orderId);
        assertThat(status(orderId)).isEqualTo("CONFIRMED");
        assertThat(getOrder(orderId).json().path("total").decimalValue()).isEqualByComparingTo("25.00");
        assertThat(stock(bookId)).isEqualTo(3);
    }

    @Test
    void anOrderThatDiedAfterTheCatalogRefusedIsRejectedAndTakesNothing() {
        long bookId = newBook(1);
        long orderId = pendingOrderAsLeftByACrash(bookId, 2);
        reserveDirectly(orderId, bookId, 2);
        long restocked = 5;
        restock(bookId, restocked);

        awaitFinal(orderId);
        // The catalog's first answer stands even though stock arrived meanwhile: the outcome is decided once.
        assertThat(status(orderId)).isEqualTo("REJECTED");
        assertThat(stock(bookId)).isEqualTo(1 + restocked);
    }

    @Test
    void aClientRetryOfAPendingOrderFinishesItAndReturnsTheSameOrder() {
        long bookId = newBook(5);
        String key = newKey();
        long orderId = pendingOrderAsLeftByACrash(key, bookId, 1);

        Response retried = buy(key, bookId, 1);

        assertThat(retried.status()).isEqualTo(201);
        assertThat(retried.orderId()).isEqualTo(orderId);
        assertThat(stock(bookId)).isEqualTo(4);
    }

    @Test
    void aBacklogLargerThanOneBatchIsWorkedOffInOneSweep(CapturedOutput output) {
        int backlog = 450; // a catalog outage's worth of buys: more than two batches of 200
        long bookId = newBook(backlog);
        double recoveredBefore = meter("agora.orders.recovered");
        orderDatabase
                .sql(
                        """
                        INSERT INTO orders (idempotency_key, book_id, quantity, status, created_at, updated_at)
                        SELECT 'backlog-' || gen_random_uuid(), ?, 1, 'PENDING',
                               now() - interval '1 minute', now() - interval '1 minute'
                        FROM generate_series(1, ?)""")
                .params(bookId, backlog)
                .update();

        // A sweep that stopped after one batch per interval would never report more than 200.
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> largestSweep(output) >= backlog);
        assertThat(ordersOf(bookId, "CONFIRMED")).isEqualTo(backlog);
        assertThat(stock(bookId)).isZero();
        // Operators see recovery at work: every order of the backlog is counted (others may be too).
        assertThat(meter("agora.orders.recovered") - recoveredBefore).isGreaterThanOrEqualTo(backlog);
    }

    private long ordersOf(long bookId, String status) {
        return orderDatabase
                .sql("SELECT count(*) FROM orders WHERE book_id = ? AND status = ?")
                .params(bookId, status)
                .query(Long.class)
                .single();
    }

    private static int largestSweep(CapturedOutput output) {
        Matcher sweep = Pattern.compile("Recovery drove (\\d+) pending orders").matcher(output.getOut());
        int largest = 0;
        while (sweep.find()) largest = Math.max(largest, Integer.parseInt(sweep.group(1)));
        return largest;
    }

    private long pendingOrderAsLeftByACrash(long bookId, int quantity) {
        return pendingOrderAsLeftByACrash(newKey(), bookId, quantity);
    }

    /** What the first step of a buy commits, dated back as if its request had died a while ago. */
    private long pendingOrderAsLeftByACrash(String key, long bookId, int quantity) {
        return pendingOrder(key, bookId, quantity, "1 minute");
    }

    private String status(long orderId) {
        return getOrder(orderId).json().path("status").asString();
    }

    private void awaitFinal(long orderId) {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> !status(orderId).equals("PENDING"));
    }
}
