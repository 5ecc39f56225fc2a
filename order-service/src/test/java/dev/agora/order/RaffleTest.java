package dev.agora.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agora.order.order.OrderStatus;
import dev.agora.order.order.Orders;
import dev.agora.order.order.Rejection;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * Every 100th confirmed buy wins its total back, counted in one gap-free order of confirmations: concurrent buys
 * and their concurrent retries, a client's retry and recovery of an order a crash left PENDING each count once,
 * when the order is confirmed. The two-replica, two-frontend version is the frontend's {@code RaffleClusterTest}.
 */
@Order(1)
class RaffleTest extends OrderTestSupport {

    @Autowired
    Orders orders;

    @Test
    void concurrentBuysAndTheirRetriesAreCountedOnceEachWithAWinnerAtEveryHundredthConfirmation() throws Exception {
        int buys = 230;
        long bookId = newBook(buys);
        long before = tally();
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < buys; i++) keys.add(newKey());

        // Every buy is sent twice at once, as a client whose first attempt timed out would: one order per key.
        List<Response> answers = onEightThreads(2 * buys, index -> buy(keys.get(index / 2), bookId, 1));

        assertThat(answers).allSatisfy(answer -> assertThat(answer.status()).isEqualTo(201));
        awaitNothingPendingFor(bookId);
        assertThat(ordersFor(bookId, "CONFIRMED")).isEqualTo(buys);
        assertThat(tally() - before).isEqualTo(buys);
        assertThat(placesOfBook(bookId)).doesNotHaveDuplicates().hasSize(buys);
        assertTheRaffleIsWhole();
    }

    @Test
    void aClientRetryOfAConfirmedBuyIsNotCountedAgain() {
        long bookId = newBook(2);
        String key = newKey();
        Response first = buy(key, bookId, 1);
        awaitNothingPendingFor(bookId);
        long afterFirst = tally();
        long place = placeOf(first.orderId());

        Response retried = buy(key, bookId, 1);

        assertThat(retried.status()).isEqualTo(201);
        assertThat(retried.orderId()).isEqualTo(first.orderId());
        assertThat(tally()).isEqualTo(afterFirst);
        assertThat(placeOf(first.orderId())).isEqualTo(place);
        assertTheRaffleIsWhole();
    }

    /**
     * The crash came after the catalog reserved and before the order was written CONFIRMED: recovery confirms it
     * later, and it is counted then, once. Other buys bring the count to 99 first, so recovery's confirmation is
     * the 100th and must win.
     */
    @Test
    void anOrderACrashLeftPendingIsCountedOnceWhenRecoveryConfirmsItAndWinsWhenItIsTheHundredth() {
        long bookId = newBook(200);
        // Dated ahead, so recovery leaves it alone while the others are confirmed; dated back afterwards.
        long orderId = pendingOrder(newKey(), bookId, 2, "-10 minutes");
        assertThat(reserveDirectly(orderId, bookId, 2).json().path("outcome").asString())
                .isEqualTo("RESERVED");
        long toTheNinetyNinth = Orders.RAFFLE_EVERY - 1 - tally() % Orders.RAFFLE_EVERY;
        for (int i = 0; i < toTheNinetyNinth; i++)
            assertThat(buy(newKey(), bookId, 1).status()).isEqualTo(201);
        await().atMost(Duration.ofSeconds(30)).until(() -> ordersFor(bookId, "CONFIRMED") == toTheNinetyNinth);
        assertThat(statusInDatabase(orderId)).isEqualTo("PENDING");
        assertThat(tally() % Orders.RAFFLE_EVERY).isEqualTo(Orders.RAFFLE_EVERY - 1);
        long before = tally();

        orderDatabase
                .sql("UPDATE orders SET updated_at = now() - interval '1 minute' WHERE id = ?")
                .param(orderId)
                .update();
        await().atMost(Duration.ofSeconds(60))
                .until(() -> statusInDatabase(orderId).equals("CONFIRMED"));

        assertThat(tally()).isEqualTo(before + 1);
        assertThat(placeOf(orderId)).isEqualTo(before + 1);
        JsonNode order = getOrder(orderId).json();
        assertThat(order.path("total").decimalValue()).isEqualByComparingTo("25.00");
        assertThat(order.path("raffle").path("position").asLong()).isEqualTo(before + 1);
        assertThat(order.path("raffle").path("refunded").decimalValue()).isEqualByComparingTo("25.00");
        assertThat(winnerAt(before + 1)).containsEntry("orderId", orderId);
        assertTheRaffleIsWhole();
    }

    /**
     * Outcomes written together (what the outcome writers do under load) take their places in list order in one
     * transaction: an order already final among them gives its place back, and the 100th place wins although more
     * statements follow it in the same transaction.
     */
    @Test
    void outcomesWrittenTogetherTakeConsecutivePlacesAndTheHundredthWins() {
        long bookId = newBook(200);
        // Dated ahead, so recovery leaves them alone.
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 4; i++) ids.add(pendingOrder(newKey(), bookId, 1, "-10 minutes"));
        long toTheNinetyEighth =
                (Orders.RAFFLE_EVERY - 2 - tally() % Orders.RAFFLE_EVERY + Orders.RAFFLE_EVERY) % Orders.RAFFLE_EVERY;
        for (int i = 0; i < toTheNinetyEighth; i++)
            assertThat(buy(newKey(), bookId, 1).status()).isEqualTo(201);
        await().atMost(Duration.ofSeconds(30)).until(() -> ordersFor(bookId, "CONFIRMED") == toTheNinetyEighth);
        long before = tally();
        assertThat(before % Orders.RAFFLE_EVERY).isEqualTo(Orders.RAFFLE_EVERY - 2);
        orders.recordAll(List.of(new Orders.Outcome(ids.get(1), OrderStatus.CONFIRMED, new BigDecimal("25.00"), null)));

        orders.recordAll(List.of(
                new Orders.Outcome(ids.get(0), OrderStatus.CONFIRMED, new BigDecimal("25.00"), null),
                new Orders.Outcome(ids.get(1), OrderStatus.CONFIRMED, new BigDecimal("25.00"), null),
                new Orders.Outcome(ids.get(2), OrderStatus.REJECTED, null, Rejection.OUT_OF_STOCK),
                new Orders.Outcome(ids.get(3), OrderStatus.CONFIRMED, new BigDecimal("25.00"), null)));

        assertThat(placeOf(ids.get(1))).isEqualTo(before + 1);
        assertThat(placeOf(ids.get(0))).isEqualTo(before + 2);
        assertThat(placeOf(ids.get(0)) % Orders.RAFFLE_EVERY).isZero();
        assertThat(statusInDatabase(ids.get(2))).isEqualTo("REJECTED");
        assertThat(placeOf(ids.get(3))).isEqualTo(before + 3);
        assertThat(tally()).isEqualTo(before + 3);
        assertThat(winnerAt(before + 2)).containsEntry("orderId", ids.get(0));
        assertTheRaffleIsWhole();
    }

    @Test
    void theWinnersListIsPagedAndRefusesBadPagesAndCallersWithoutAToken() {
        assertThat(get("/raffle/winners?page=0&size=0").status()).isEqualTo(400);
        assertThat(get("/raffle/winners?page=-1").status()).isEqualTo(400);
        assertThat(get("/raffle/winners?size=1001").status()).isEqualTo(400);
        assertThat(getAs(null, "/raffle/winners").status()).isEqualTo(401);
        assertThat(getAs(Tokens.service("frontend-service"), "/raffle/winners").status())
                .isEqualTo(200);
    }

    /**
     * What holds of the whole order log whatever else ran: places 1..n without gaps or repeats, n the tally; the
     * winners exactly the multiples of 100, each refunded its total; and the winners list says the same.
     */
    private void assertTheRaffleIsWhole() {
        Map<String, Object> places = orderDatabase
                .sql(
                        """
                        SELECT count(*) AS placed, count(DISTINCT confirmation) AS distinct_places,
                               coalesce(max(confirmation), 0) AS highest, min(confirmation) AS lowest
                        FROM orders WHERE confirmation IS NOT NULL""")
                .query()
                .singleRow();
        long tally = tally();
        assertThat(((Number) places.get("placed")).longValue()).isEqualTo(tally);
        assertThat(((Number) places.get("distinct_places")).longValue()).isEqualTo(tally);
        assertThat(((Number) places.get("highest")).longValue()).isEqualTo(tally);
        if (tally > 0) assertThat(((Number) places.get("lowest")).longValue()).isEqualTo(1);
        assertThat(orderDatabase
                        .sql("SELECT count(*) FROM orders WHERE confirmation IS NOT NULL AND status <> 'CONFIRMED'")
                        .query(Long.class)
                        .single())
                .isZero();

        List<Long> expected = new ArrayList<>();
        for (long place = Orders.RAFFLE_EVERY; place <= tally; place += Orders.RAFFLE_EVERY) expected.add(place);
        JsonNode page = get("/raffle/winners?size=1000").json();
        List<Long> listed = new ArrayList<>();
        for (JsonNode winner : page.path("content")) {
            listed.add(winner.path("position").asLong());
            long orderId = winner.path("orderId").asLong();
            Map<String, Object> row = orderDatabase
                    .sql("SELECT status, total, refunded, confirmation, book_id FROM orders WHERE id = ?")
                    .param(orderId)
                    .query()
                    .singleRow();
            assertThat(row.get("status")).isEqualTo("CONFIRMED");
            assertThat(((Number) row.get("confirmation")).longValue())
                    .isEqualTo(winner.path("position").asLong());
            assertThat(winner.path("refunded").decimalValue()).isEqualByComparingTo((BigDecimal) row.get("total"));
            assertThat(winner.path("bookId").asLong()).isEqualTo(((Number) row.get("book_id")).longValue());
            assertThat(winner.path("wonAt").asString()).isNotBlank();
        }
        assertThat(listed).isEqualTo(expected);
        assertThat(page.path("totalElements").asLong()).isEqualTo(expected.size());
    }

    private Map<String, Object> winnerAt(long position) {
        for (JsonNode winner : get("/raffle/winners?size=1000").json().path("content")) {
            if (winner.path("position").asLong() == position) {
                return Map.of("orderId", winner.path("orderId").asLong());
            }
        }
        return Map.of();
    }

    private long tally() {
        return orderDatabase
                .sql("SELECT confirmed FROM raffle_tally")
                .query(Long.class)
                .single();
    }

    private long placeOf(long orderId) {
        return orderDatabase
                .sql("SELECT confirmation FROM orders WHERE id = ?")
                .param(orderId)
                .query(Long.class)
                .single();
    }

    private List<Long> placesOfBook(long bookId) {
        return orderDatabase
                .sql("SELECT confirmation FROM orders WHERE book_id = ? AND confirmation IS NOT NULL")
                .param(bookId)
                .query(Long.class)
                .list();
    }

    /** Buys are answered before their outcome is written; the rows follow within moments. */
    private void awaitNothingPendingFor(long bookId) {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> ordersFor(bookId, "PENDING") == 0);
    }

    private static List<Response> onEightThreads(int calls, Call call) throws Exception {
        try (ExecutorService threads = Executors.newFixedThreadPool(8)) {
            List<Future<Response>> futures = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                int index = i;
                futures.add(threads.submit(() -> call.run(index)));
            }
            List<Response> responses = new ArrayList<>();
            for (Future<Response> future : futures) responses.add(future.get(120, TimeUnit.SECONDS));
            return responses;
        }
    }
}
