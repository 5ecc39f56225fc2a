package dev.agora.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agora.local.process.ServiceProcess;
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
        double failedBefore = meter("agora.orders.outcomes.failed");

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
        assertThat(meter("agora.orders.outcomes.backlog")).isZero();
        assertThat(meter("agora.orders.outcomes.failed")).isEqualTo(failedBefore);
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
                                .header(AUTHORIZATION, Tokens.service(Tokens.ORDER_CLIENT)))
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

    @Test
    void aPageOfManyPendingOrdersAsksTheCatalogOnce() {
        int orders = 30;
        long bookId = newBook(orders);
        List<Long> reserved = new ArrayList<>();
        for (int i = 0; i < orders; i++) {
            // Dated a minute ahead, so that recovery leaves them to the read however long setting them up takes.
            long orderId = pendingOrder(newKey(), bookId, 1, "-1 minute");
            if (i % 2 == 0) {
                reserveDirectly(orderId, bookId, 1);
                reserved.add(orderId);
            }
        }
        double readsBefore = reservationReadsAtTheCatalog();

        Response page = get("/orders?page=0&size=" + orders);

        // A replica counts a request once it has answered it, so the count may trail the answer a little.
        await().atMost(Duration.ofSeconds(5)).until(() -> reservationReadsAtTheCatalog() > readsBefore);
        // One call per read, or two when it was hedged to the other replica; one per PENDING order would be 30.
        assertThat(reservationReadsAtTheCatalog() - readsBefore).isBetween(1.0, 2.0);
        assertThat(page.json().path("content").valueStream()).hasSize(orders).allSatisfy(order -> assertThat(
                        order.path("status").asString())
                .isEqualTo(reserved.contains(order.path("orderId").asLong()) ? "CONFIRMED" : "PENDING"));
    }

    @Test
    void theOutcomeAndRecoveryMetersAreScrapedUnderTheNamesTheDashboardCharts() {
        String scrape = prometheusScrape();

        // The series docker/grafana/dashboards/agora-overview.json queries (ObservabilityRules lists them).
        for (String series : List.of(
                "agora_orders_outcomes_backlog",
                "agora_orders_outcomes_inline_total",
                "agora_orders_outcomes_failed_total",
                "agora_orders_recovered_total")) {
            assertThat(scrape).as(series).containsPattern("(?m)^" + series + "[ {]");
        }
    }

    /** Reads of reservations ({@code GET /internal/reservations}) both catalog replicas have answered so far. */
    private static double reservationReadsAtTheCatalog() {
        double reads = 0;
        for (ServiceProcess catalog : CatalogReplicas.get()) {
            Response meter = send(HttpRequest.newBuilder(URI.create(catalog.baseUrl()
                            + "/actuator/metrics/http.server.requests?tag=method:GET&tag=uri:/internal/reservations"))
                    .header(AUTHORIZATION, Tokens.admin()));
            if (meter.status() == 200)
                reads += meter.json().path("measurements").get(0).path("value").asDouble();
        }
        return reads;
    }
}
