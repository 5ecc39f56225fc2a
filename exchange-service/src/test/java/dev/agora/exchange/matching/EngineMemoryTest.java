package dev.agora.exchange.matching;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.exchange.store.ChangeSet;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/**
 * The engine's memory follows open interest, not history: after 1,000,000 filled orders it holds what it held after
 * 10,000 (the heap after GC within 10%), because filled and canceled orders leave memory once more than
 * {@link MemoryLimits#closedOrdersKept()} have closed after them, and more than
 * {@link MemoryLimits#closedOrdersKeptPerAccount()} of their account's. The whole exchange process is measured the
 * same way by {@code agora-perf run exchange-history}.
 */
class EngineMemoryTest {

    private static final BigDecimal ONE = BigDecimal.ONE;
    private static final BigDecimal PRICE = new BigDecimal("100.25");

    @Test
    void heapAfterAMillionFilledOrdersIsWithinTenPercentOfTheHeapAfterTenThousand() {
        // Fewer kept closed orders than the default 16,384, so that 10,000 filled orders already fill what is kept: the
        // test JVM's heap is small (about 17 MB), and the default's 6,384 more kept orders (about 1.3 MB) would be
        // most of the 10% here. Against a whole exchange process the default is measured (perf's exchange-history).
        MemoryLimits limits = new MemoryLimits(4_096, 8, 8);
        MatchingEngine engine = new MatchingEngine(() -> 1_700_000_000L, limits);
        ChangeSet changes = new ChangeSet();
        engine.reportChangesTo(changes);
        engine.createAccount("1", new BigDecimal("1000000"));
        engine.addShares("SYM", "1", ONE);
        // One open order that stays, so the book is not empty either.
        engine.placeOrder("1", "SYM", ONE, new BigDecimal("1"));

        fill(engine, changes, 1, 10_000);
        long afterTenThousand = usedHeapAfterGc();
        fill(engine, changes, 1, 990_000);
        long afterAMillion = usedHeapAfterGc();

        assertThat(engine.nextOrderId()).isEqualTo(1_000_002);
        assertThat(engine.openOrderCount()).isEqualTo(1);
        assertThat(engine.closedOrdersHeld()).isEqualTo(limits.closedOrdersKept());
        assertThat((double) afterAMillion)
                .as("heap after 1,000,000 filled orders vs %,d bytes after 10,000", afterTenThousand)
                .isLessThanOrEqualTo(afterTenThousand * 1.10);
        // The first orders are gone from memory; asking for one needs the store now.
        assertThat(engine.query("1", 2)).isInstanceOf(Result.StoredOrder.class);
    }

    @Test
    void theLatestClosedOrdersKeptPerAccountFollowTheAccountsNotHistory() {
        // 1,000 accounts whose latest 8 closed orders are all kept (8,000 orders), besides 1,024 exchange-wide: full
        // after the first 10,000 orders (10 closed per account), and no more after 1,000,000.
        MemoryLimits limits = new MemoryLimits(1_024, 8, 8);
        MatchingEngine engine = new MatchingEngine(() -> 1_700_000_000L, limits);
        ChangeSet changes = new ChangeSet();
        engine.reportChangesTo(changes);
        for (int account = 1; account <= ACCOUNTS; account++) {
            engine.createAccount(Integer.toString(account), new BigDecimal("1000000"));
            engine.addShares("SYM", Integer.toString(account), ONE);
        }

        fill(engine, changes, ACCOUNTS, 10_000);
        long afterTenThousand = usedHeapAfterGc();
        fill(engine, changes, ACCOUNTS, 990_000);
        long afterAMillion = usedHeapAfterGc();

        assertThat(engine.openOrderCount()).isZero();
        assertThat(engine.closedOrdersKeptByAccounts()).isEqualTo(8L * ACCOUNTS);
        assertThat((double) afterAMillion)
                .as("heap after 1,000,000 filled orders vs %,d bytes after 10,000", afterTenThousand)
                .isLessThanOrEqualTo(afterTenThousand * 1.10);
        // Every account's latest orders are answered from memory, older ones from the store.
        long last = engine.nextOrderId() - 1;
        assertThat(engine.query("1000", last)).isInstanceOf(Result.OrderStatus.class);
        assertThat(engine.query("1", last - 2 * ACCOUNTS + 2)).isInstanceOf(Result.OrderStatus.class);
        assertThat(engine.query("1", last - 2 * 5 * ACCOUNTS + 1)).isInstanceOf(Result.StoredOrder.class);
    }

    private static final int ACCOUNTS = 1_000;

    /**
     * {@code orders} orders that all fill, the accounts {@code 1..accounts} in turn: a sell that rests, then a buy of
     * the same account that takes it.
     */
    private static void fill(MatchingEngine engine, ChangeSet changes, int accounts, int orders) {
        for (int i = 0; i < orders / 2; i++) {
            String account = Integer.toString(1 + i % accounts);
            engine.placeOrder(account, "SYM", ONE.negate(), PRICE);
            engine.placeOrder(account, "SYM", ONE, PRICE);
            // As the sequencer does after every batch it hands to the committer.
            if (i % 64 == 0) changes.clear();
        }
        changes.clear();
    }

    private static long usedHeapAfterGc() {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            used = Math.min(
                    used,
                    ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
