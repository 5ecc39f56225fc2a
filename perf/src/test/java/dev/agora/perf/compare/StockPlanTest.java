package dev.agora.perf.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StockPlanTest {

    @Test
    void aClusterThatCanBeRestockedIsToppedUpForTheWholeRunAndWarmsUpWithEveryBuyWanted() {
        StockPlan plan = StockPlan.plan(books(5), 1_600, 2_000, true);

        assertThat(plan.warmUpBuys()).isEqualTo(2_000);
        // 3,600 buys over 7 books in turn take at most 515 of one, plus the margin.
        assertThat(plan.restockTo()).isEqualTo(515 + StockPlan.MARGIN);
    }

    @Test
    void anOpenDoorWarmsUpWithWhatItsStockSparesAfterTheMeasuredBuys() {
        // The seed's 1,000 copies a book; 8 rounds of 200 buys take 229 a book, 10 kept aside: 761 a book spare.
        StockPlan plan = StockPlan.plan(books(1_000), 1_600, 10_000, false);

        assertThat(plan.restockTo()).isZero();
        assertThat(plan.warmUpBuys()).isEqualTo(761L * 7);
        assertThat(StockPlan.plan(books(1_000), 1_600, 2_000, false).warmUpBuys())
                .isEqualTo(2_000);
    }

    @Test
    void refusesToMeasureBuysThatWouldRunAnOpenDoorOutOfStock() {
        Map<Long, Long> stock = books(1_000);
        stock.put(3L, 100L);

        assertThatThrownBy(() -> StockPlan.plan(stock, 1_600, 2_000, false))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("only 100 copies")
                .hasMessageContaining("lower --rounds or --buys");
    }

    private static Map<Long, Long> books(long copies) {
        Map<Long, Long> stock = new LinkedHashMap<>();
        for (long book = 1; book <= 7; book++) stock.put(book, copies);
        return stock;
    }
}
