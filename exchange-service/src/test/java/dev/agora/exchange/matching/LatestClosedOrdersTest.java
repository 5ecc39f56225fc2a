package dev.agora.exchange.matching;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/**
 * Each account's latest closed orders stay in memory however many orders of other accounts closed since
 * ({@link MemoryLimits#closedOrdersKeptPerAccount()}): the query a trader makes of its own recent orders needs no
 * database read even when the exchange-wide window of closed orders has long moved past them.
 */
class LatestClosedOrdersTest {

    /** Two closed orders exchange-wide, three per account, two fills per order. */
    private final MatchingEngine engine = new MatchingEngine(() -> 1_700_000_000L, new MemoryLimits(2, 2, 3));

    private static BigDecimal d(String value) {
        return new BigDecimal(value);
    }

    private long place(String account, String amount, String limit) {
        return ((Result.OrderOpened) engine.placeOrder(account, "X", d(amount), d(limit))).orderId();
    }

    private long placeAndCancel(String account) {
        long id = place(account, "1", "1");
        assertThat(engine.cancel(account, id)).isInstanceOf(Result.OrderCanceled.class);
        return id;
    }

    @Test
    void anAccountsLatestClosedOrdersAreAnsweredFromMemoryAfterOthersClosedManyMore() {
        engine.createAccount("1", d("1000"));
        engine.createAccount("2", d("1000"));
        long forgotten = placeAndCancel("1");
        long[] latest = {placeAndCancel("1"), placeAndCancel("1"), placeAndCancel("1")};
        for (int i = 0; i < 50; i++) placeAndCancel("2");

        for (long id : latest) {
            OrderSnapshot order = ((Result.OrderStatus) engine.query("1", id)).order();
            assertThat(order.id()).isEqualTo(id);
            assertThat(order.open()).isNull();
            assertThat(order.canceled().shares()).isEqualByComparingTo("1");
            // Nothing open to cancel, answered without the store as well.
            assertThat(engine.cancel("1", id)).isEqualTo(Result.rejected(Rejection.NOTHING_OPEN));
        }
        // The fourth latest is gone from memory: the store answers for it.
        assertThat(engine.query("1", forgotten)).isInstanceOf(Result.StoredOrder.class);
        // Another account's kept order is not shown to it: the store decides (it answers "foreign").
        assertThat(engine.query("2", latest[0])).isInstanceOf(Result.StoredOrder.class);
        assertThat(engine.cancel("2", latest[0])).isInstanceOf(Result.StoredOrder.class);
    }

    @Test
    void aKeptFilledOrderShowsItsExecutions() {
        engine.createAccount("1", d("1000"));
        engine.createAccount("2", d("0"));
        engine.addShares("X", "2", d("10"));
        long sell = place("2", "-3", "5");
        place("1", "1", "5");
        place("1", "2", "6");
        for (int i = 0; i < 10; i++) placeAndCancel("1");

        OrderSnapshot order = ((Result.OrderStatus) engine.query("2", sell)).order();
        assertThat(order.open()).isNull();
        assertThat(order.executions())
                .extracting(OrderSnapshot.SignedFill::shares)
                .usingElementComparator(BigDecimal::compareTo)
                .containsExactly(d("-1"), d("-2"));
        assertThat(order.executions())
                .extracting(OrderSnapshot.SignedFill::price)
                .usingElementComparator(BigDecimal::compareTo)
                .containsExactly(d("5"), d("5"));
    }

    @Test
    void noneAreKeptPerAccountWhenTheLimitIsZero() {
        MatchingEngine without = new MatchingEngine(() -> 1_700_000_000L, new MemoryLimits(1, 2, 0));
        without.createAccount("1", d("1000"));
        long first = ((Result.OrderOpened) without.placeOrder("1", "X", d("1"), d("1"))).orderId();
        without.cancel("1", first);
        long second = ((Result.OrderOpened) without.placeOrder("1", "X", d("1"), d("1"))).orderId();
        without.cancel("1", second);
        assertThat(without.query("1", first)).isInstanceOf(Result.StoredOrder.class);
        assertThat(without.query("1", second)).isInstanceOf(Result.OrderStatus.class);
    }
}
