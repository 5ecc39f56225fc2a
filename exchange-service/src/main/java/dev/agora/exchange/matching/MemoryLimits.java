package dev.agora.exchange.matching;

/**
 * What the engine keeps in memory besides accounts, positions and open orders, so that its memory follows open
 * interest and not history. Orders that are no longer open, and executions beyond the few kept per open order, live
 * in the store ({@link StoredOrders}) and are read from there when asked for.
 *
 * @param closedOrdersKept the most recently closed (filled or canceled) orders kept, so that the usual query of a
 *     recent order needs no database read; older ones are forgotten, first closed first
 * @param fillsKeptPerOrder executions kept with an order; an order with more has all of them read from the store
 *     when it is queried
 */
public record MemoryLimits(int closedOrdersKept, int fillsKeptPerOrder) {

    public static final MemoryLimits DEFAULT = new MemoryLimits(16_384, 8);

    public MemoryLimits {
        if (closedOrdersKept < 0 || fillsKeptPerOrder < 0) throw new IllegalArgumentException("limits must be >= 0");
    }
}
