package dev.agora.exchange.matching;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The engine alone, without Spring or a database: rules that are awkward to reach through the protocol. */
class MatchingEngineTest {

    private final List<Execution> executions = new ArrayList<>();
    private final MatchingEngine engine = new MatchingEngine(() -> 1_700_000_000L);

    MatchingEngineTest() {
        engine.reportChangesTo(new StateChanges() {
            @Override
            public void executed(Execution execution) {
                executions.add(execution);
            }
        });
    }

    private static BigDecimal d(String value) {
        return new BigDecimal(value);
    }

    private long place(String account, String amount, String limit) {
        return ((Result.OrderOpened) engine.placeOrder(account, "X", d(amount), d(limit))).orderId();
    }

    @Test
    void aRestingOrderKeepsItsTimePriorityAfterAPartialFill() {
        engine.createAccount("1", d("10000"));
        engine.createAccount("2", d("0"));
        engine.addShares("X", "2", d("100"));
        long first = place("2", "-10", "5");
        long second = place("2", "-10", "5");
        place("1", "4", "5");
        place("1", "4", "5");
        assertThat(engine.order(first).orElseThrow().open()).isEqualByComparingTo("2");
        assertThat(engine.order(second).orElseThrow().open()).isEqualByComparingTo("10");
    }

    @Test
    void anIncomingOrderSweepsSeveralLevelsBestFirst() {
        engine.createAccount("1", d("10000"));
        engine.createAccount("2", d("0"));
        engine.addShares("X", "2", d("100"));
        place("2", "-5", "12");
        place("2", "-5", "10");
        place("2", "-5", "11");
        place("1", "12", "11.5");
        assertThat(executions).extracting(Execution::price).containsExactly(d("10"), d("11"));
        assertThat(executions).extracting(Execution::shares).containsExactly(d("5"), d("5"));
        // 10000 - 12 x 11.5 reserved + 5 x 1.5 + 5 x 0.5 refunded = 9872
        assertThat(engine.account("1").orElseThrow().balance()).isEqualByComparingTo("9872");
    }

    @Test
    void fractionalQuantitiesAreExact() {
        engine.createAccount("1", d("1"));
        engine.createAccount("2", d("0"));
        engine.addShares("X", "2", d("0.3"));
        place("2", "-0.1", "0.1");
        place("2", "-0.2", "0.1");
        place("1", "0.3", "0.1");
        assertThat(engine.account("1").orElseThrow().balance()).isEqualByComparingTo("0.97");
        assertThat(engine.account("2").orElseThrow().balance()).isEqualByComparingTo("0.03");
        assertThat(engine.account("1").orElseThrow().shares("X")).isEqualByComparingTo("0.3");
    }

    @Test
    void rejectionsChangeNothing() {
        engine.createAccount("1", d("10"));
        assertThat(engine.placeOrder("1", "X", d("11"), d("1")))
                .isEqualTo(Result.rejected(Rejection.INSUFFICIENT_FUNDS));
        assertThat(engine.placeOrder("1", "X", d("-1"), d("1")))
                .isEqualTo(Result.rejected(Rejection.INSUFFICIENT_SHARES));
        assertThat(engine.placeOrder("9", "X", d("1"), d("1"))).isEqualTo(Result.rejected(Rejection.UNKNOWN_ACCOUNT));
        assertThat(engine.account("1").orElseThrow().balance()).isEqualByComparingTo("10");
        assertThat(engine.openOrders()).isEmpty();
        assertThat(engine.nextOrderId()).as("a rejected order takes no id").isEqualTo(1);
    }

    @Test
    void decimalsAcceptOnlyPlainBoundedNumbers() {
        assertThat(Decimals.parse("12.50")).isEqualTo(d("12.50"));
        assertThat(Decimals.parse("-3")).isEqualTo(d("-3"));
        assertThat(Decimals.parse("1e9")).isNull();
        assertThat(Decimals.parse("1".repeat(31))).isNull();
        assertThat(Decimals.parse("0." + "1".repeat(13))).isNull();
        assertThat(Decimals.parse("")).isNull();
        assertThat(Decimals.parse("-")).isNull();
        assertThat(Decimals.parse(" 1 ")).isEqualTo(d("1"));
        assertThat(Decimals.parse("1 2")).isNull();
    }
}
