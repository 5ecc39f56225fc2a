package dev.agora.order;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.local.postgres.PostgresServer;
import dev.agora.local.postgres.SharedPostgres;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
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
 * Reservations sent to the catalog in batches (order-service/README.md, "What a buy costs"): buys that find two
 * catalog calls under way hand their reservation to the sender thread, which sends every one waiting in one
 * {@code POST /internal/reservations/batch}. To hold the catalog for sure, the test locks the book's row in the real
 * catalogs' database (a replica frozen inside a transaction): buys' own calls and the sender's first call stall there
 * while the next buys queue behind the sender.
 */
@Order(2)
class ReservationSenderTest extends OrderTestSupport {

    @Autowired
    MeterRegistry meters;

    @Test
    void buysThatWaitedForTheCatalogAreSentInOneBatchAndAnEntryItDidNotAnswerIsSentAlone() throws Exception {
        int copies = 10;
        int queued = 12;
        long bookId = newBook(copies);
        double callsBefore = batches().count();
        double sentBefore = batches().totalAmount();
        double notAnsweredBefore = handedBack("not-answered");
        List<Future<Response>> plugs = new ArrayList<>();
        List<Future<Response>> buys = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(queued + 8)) {
            PostgresServer postgres = SharedPostgres.get();
            try (Connection catalog = DriverManager.getConnection(
                    postgres.jdbcUrl("catalog_it"), postgres.username(), postgres.password())) {
                catalog.setAutoCommit(false);
                try (Statement lock = catalog.createStatement()) {
                    lock.execute("SET LOCAL idle_in_transaction_session_timeout = 0");
                    lock.executeQuery("SELECT id FROM books WHERE id = " + bookId + " FOR UPDATE")
                            .close();
                }
                // Buys one at a time until the sender calls: the first two call alone, the next is handed over.
                while (batches().count() == callsBefore) {
                    assertThat(plugs).as("buys before the sender called").hasSizeLessThan(6);
                    plugs.add(threads.submit(() -> buy(newKey(), bookId, 1)));
                    awaitAtMost(Duration.ofMillis(500), () -> batches().count() > callsBefore);
                }
                for (int i = 0; i < queued; i++) buys.add(threads.submit(() -> buy(newKey(), bookId, 1)));
                await(() -> waiting() >= queued);
                // The sender's first call: the catalog's batch failed on the locked row, then the reservation, decided
                // alone, waited out the catalog's lock timeout and was answered 503: handed back to its buy.
                await(() -> handedBack("not-answered") > notAnsweredBefore);
                catalog.rollback();
            }
            List<Response> responses = new ArrayList<>();
            for (Future<Response> buy : plugs) responses.add(buy.get(60, TimeUnit.SECONDS));
            for (Future<Response> buy : buys) responses.add(buy.get(60, TimeUnit.SECONDS));

            int all = plugs.size() + queued;
            List<Response> confirmed =
                    responses.stream().filter(r -> r.status() == 201).toList();
            assertThat(confirmed).hasSize(copies);
            assertThat(confirmed).allSatisfy(r -> {
                assertThat(r.json().path("status").asString()).isEqualTo("CONFIRMED");
                assertThat(new BigDecimal(r.json().path("total").asString())).isEqualByComparingTo("12.50");
            });
            assertThat(confirmed.stream().map(Response::orderId).distinct()).hasSize(copies);
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
                    .as("every buy but the two that called alone (a slow buy may have joined the second batch)")
                    .isBetween((double) handedOver, (double) handedOver + plugs.size());
            Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                assertThat(ordersFor(bookId, "CONFIRMED")).isEqualTo(copies);
                assertThat(ordersFor(bookId, "REJECTED")).isEqualTo(all - copies);
            });
        }
    }

    private static void await(Callable<Boolean> condition) {
        awaitAtMost(Duration.ofSeconds(5), condition);
    }

    private static void awaitAtMost(Duration most, Callable<Boolean> condition) {
        try {
            Awaitility.await().atMost(most).pollInterval(Duration.ofMillis(5)).until(condition);
        } catch (org.awaitility.core.ConditionTimeoutException notYet) {
            if (most.compareTo(Duration.ofSeconds(1)) > 0) throw notYet;
        }
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
