package dev.agora.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * A buy is answered as soon as the catalog has decided, and its outcome is written after the answer. Reads
 * never show such a buy as less than it was answered: a PENDING row whose reservation the catalog holds is read
 * (and written) as the catalog decided it, on any replica.
 */
@Order(2)
class AnsweringBeforeWritingTest extends OrderTestSupport {

    @Test
    void everyBuyReadsAsItWasAnsweredRightAfterItsAnswerAndItsOutcomeIsWrittenWithoutRecovery() {
        int copies = 20;
        long bookId = newBook(copies);
        List<Long> orderIds = new ArrayList<>();

        for (int i = 0; i < copies + 5; i++) {
            Response bought = buy(newKey(), bookId, 1);
            Response read = getOrder(bought.orderId());

            String answered = bought.status() == 201 ? "CONFIRMED" : "REJECTED";
            assertThat(bought.status()).isIn(201, 409);
            assertThat(read.json().path("status").asString()).isEqualTo(answered);
            orderIds.add(bought.orderId());
        }

        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(ordersFor(bookId, "PENDING")).isZero());
        assertThat(ordersFor(bookId, "CONFIRMED")).isEqualTo(copies);
        assertThat(ordersFor(bookId, "REJECTED")).isEqualTo(5);
        assertThat(stock(bookId)).isZero();
        // Recovery only drives orders pending for its minimum age (1 s here): these were written by the buys.
        assertThat(orderDatabase
                        .sql("SELECT max(updated_at - created_at) < interval '1 second' FROM orders WHERE book_id = ?")
                        .param(bookId)
                        .query(Boolean.class)
                        .single())
                .isTrue();
        assertThat(orderIds).doesNotHaveDuplicates();
    }

    @Test
    void aPendingOrderTheCatalogHasReservedIsReadAsConfirmedAndTheReadWritesIt() {
        long bookId = newBook(5);
        long orderId = pendingOrder(newKey(), bookId, 2, "0 seconds");
        assertThat(reserveDirectly(orderId, bookId, 2).json().path("outcome").asString())
                .isEqualTo("RESERVED");

        Response read = getOrder(orderId);

        assertThat(read.json().path("status").asString()).isEqualTo("CONFIRMED");
        assertThat(read.json().path("total").decimalValue()).isEqualByComparingTo("25.00");
        assertThat(statusInDatabase(orderId)).isEqualTo("CONFIRMED");
        assertThat(stock(bookId)).isEqualTo(3);
    }

    @Test
    void aPendingOrderTheCatalogHasRefusedIsReadAsRejectedAndTheReadWritesIt() {
        long bookId = newBook(1);
        long orderId = pendingOrder(newKey(), bookId, 2, "0 seconds");
        reserveDirectly(orderId, bookId, 2);

        Response read = getOrder(orderId);

        assertThat(read.json().path("status").asString()).isEqualTo("REJECTED");
        assertThat(read.json().path("rejection").asString()).isEqualTo("OUT_OF_STOCK");
        assertThat(statusInDatabase(orderId)).isEqualTo("REJECTED");
        assertThat(stock(bookId)).isEqualTo(1);
    }

    @Test
    void aPendingOrderTheCatalogHasNotDecidedIsReadAsPendingAndTheReadReservesNothing() {
        long bookId = newBook(5);
        long orderId = pendingOrder(newKey(), bookId, 2, "0 seconds");

        Response read = getOrder(orderId);

        assertThat(read.json().path("status").asString()).isEqualTo("PENDING");
        assertThat(stock(bookId)).isEqualTo(5);
        assertThat(send(HttpRequest.newBuilder(URI.create(catalog("/internal/reservations/" + orderId)))
                                .header("X-Internal-Token", INTERNAL_TOKEN))
                        .status())
                .isEqualTo(404);
    }

    @Test
    void aPageReadsThePendingOrdersTheCatalogHasDecidedAsDecided() {
        long bookId = newBook(5);
        long reserved = pendingOrder(newKey(), bookId, 1, "0 seconds");
        long undecided = pendingOrder(newKey(), bookId, 1, "0 seconds");
        reserveDirectly(reserved, bookId, 1);

        Response page = get("/orders?page=0&size=2");

        assertThat(page.json()
                        .path("content")
                        .valueStream()
                        .map(order -> order.path("orderId").asLong() + " "
                                + order.path("status").asString()))
                .containsExactly(undecided + " PENDING", reserved + " CONFIRMED");
        assertThat(statusInDatabase(reserved)).isEqualTo("CONFIRMED");
    }
}
