package dev.agora.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Orders a crash left PENDING, at either point of the saga, are driven to a final state by the recovery
 * sweeper, and the catalog's stock agrees with the outcome (taken exactly once or not at all).
 */
@Order(2)
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

    private long pendingOrderAsLeftByACrash(long bookId, int quantity) {
        return pendingOrderAsLeftByACrash(newKey(), bookId, quantity);
    }

    /** What the first step of a buy commits, dated back as if its request had died a while ago. */
    private long pendingOrderAsLeftByACrash(String key, long bookId, int quantity) {
        return orderDatabase
                .sql(
                        """
                        INSERT INTO orders (idempotency_key, book_id, quantity, status, created_at, updated_at)
                        VALUES (?, ?, ?, 'PENDING', now() - interval '1 minute', now() - interval '1 minute')
                        RETURNING id""")
                .params(key, bookId, quantity)
                .query(Long.class)
                .single();
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
