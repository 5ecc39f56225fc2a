package dev.agora.exchange.matching;

/**
 * What the engine keeps in memory besides accounts, positions and open orders, so that its memory follows open
 * interest and accounts, not history. Orders that are no longer open, and executions beyond the few kept per open
 * order, live in the store ({@link StoredOrders}) and are read from there when asked for.
 *
 * @param closedOrdersKept the most recently closed (filled or canceled) orders of the whole exchange kept, so that
 *     the usual query of a recent order needs no database read; older ones are forgotten, first closed first
 * @param fillsKeptPerOrder executions kept with an order; an order with more has all of them read from the store
 *     when it is queried
 * @param closedOrdersKeptPerAccount each account's own most recently closed orders kept besides, however long ago
 *     they closed: a trader asks about its latest orders, and under load the exchange-wide window above closes over
 *     a quiet account's orders within seconds. Costs a few orders per account, which the engine holds anyway.
 */
public record MemoryLimits(int closedOrdersKept, int fillsKeptPerOrder, int closedOrdersKeptPerAccount) {

    public static final MemoryLimits DEFAULT = new MemoryLimits(16_384, 8, 8);

    /** Limits that keep no closed orders per account (only the exchange-wide window). */
    public MemoryLimits(int closedOrdersKept, int fillsKeptPerOrder) {
        this(closedOrdersKept, fillsKeptPerOrder, 0);
    }

    public MemoryLimits {
        if (closedOrdersKept < 0 || fillsKeptPerOrder < 0 || closedOrdersKeptPerAccount < 0) {
            throw new IllegalArgumentException("limits must be >= 0");
        }
    }
}
