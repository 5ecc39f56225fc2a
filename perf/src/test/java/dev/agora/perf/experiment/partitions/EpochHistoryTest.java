package dev.agora.perf.experiment.partitions;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link Checks#leadersAtOnce}: one leader at a time, judged by the lease epoch each acknowledged order carries. */
class EpochHistoryTest {

    private static Traders.Order order(long id, String via, long sent, long acked) {
        return new Traders.Order(id, "1", "S", BigDecimal.ONE, BigDecimal.TEN, via, sent, acked);
    }

    @Test
    void aHandoverWithOrdersInFlightAcrossItIsOneLeaderAtATime() {
        List<String> problems = new ArrayList<>();
        // 2 was sent before the handover and acknowledged after the successor's first acknowledgement: its commit
        // came first, only its answer came late.
        List<Traders.Order> orders = List.of(
                order(1, "xml:exchange-1", 0, 10),
                order(2, "xml:exchange-1", 20, 60),
                order(3, "xml:exchange-2", 40, 50),
                order(4, "rest", 55, 70));

        assertThat(Checks.leadersAtOnce(orders, Map.of(1L, 1L, 2L, 1L, 3L, 2L, 4L, 2L), problems))
                .isEqualTo(1);
        assertThat(problems).isEmpty();
    }

    @Test
    void anOrderSentAfterAnotherWasAcknowledgedAtALaterEpochButCommittedAtAnEarlierOneIsTwoLeadersAtOnce() {
        List<String> problems = new ArrayList<>();
        List<Traders.Order> orders = List.of(order(1, "xml:exchange-2", 0, 10), order(2, "rest", 20, 30));

        assertThat(Checks.leadersAtOnce(orders, Map.of(1L, 2L, 2L, 1L), problems))
                .isEqualTo(2);
        assertThat(problems).singleElement().asString().contains("committed at epoch 1");
    }

    @Test
    void oneEpochsOrdersAcknowledgedByTwoInstancesIsTwoLeadersAtOnce() {
        List<String> problems = new ArrayList<>();
        List<Traders.Order> orders = List.of(order(1, "xml:exchange-1", 0, 10), order(2, "xml:exchange-2", 0, 10));

        assertThat(Checks.leadersAtOnce(orders, Map.of(1L, 3L, 2L, 3L), problems))
                .isEqualTo(2);
    }

    @Test
    void ordersWithoutAnEpochSayNothing() {
        assertThat(Checks.leadersAtOnce(List.of(order(1, "rest", 0, 1)), Map.of(), new ArrayList<>()))
                .isZero();
    }
}
