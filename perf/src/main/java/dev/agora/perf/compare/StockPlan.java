package dev.agora.perf.compare;

import java.util.Map;

/**
 * How many buys a cluster's stock allows. Buys go to the seven books in turn, so a book sells at most
 * ceil(buys / 7). A cluster that can be restocked (an admin client, or the open door's static admin token) is topped
 * up to what the run needs; one that cannot must already hold it, and warms up with fewer buys if it holds less. A
 * measurement that would run out is refused before it starts: out-of-stock answers are not a figure.
 *
 * @param warmUpBuys the buys the warm-up may make on this cluster
 * @param restockTo each book's stock to top up to first; 0 for no restock
 */
public record StockPlan(long warmUpBuys, long restockTo) {

    /** Copies left over on every book, so a retried or miscounted buy still finds stock. */
    static final long MARGIN = 10;

    public static StockPlan plan(
            Map<Long, Long> stockByBook, long measuredBuys, long wantedWarmUpBuys, boolean canRestock) {
        if (stockByBook.isEmpty()) throw new IllegalArgumentException("no books");
        int books = stockByBook.size();
        if (canRestock)
            return new StockPlan(wantedWarmUpBuys, perBook(measuredBuys + wantedWarmUpBuys, books) + MARGIN);
        long least =
                stockByBook.values().stream().mapToLong(Long::longValue).min().orElseThrow();
        long needed = perBook(measuredBuys, books) + MARGIN;
        if (least < needed) {
            throw new IllegalStateException(
                    "A book holds only " + least + " copies and this cluster cannot be restocked"
                            + " (no admin client); the rounds buy up to " + perBook(measuredBuys, books) + " of each (+"
                            + MARGIN
                            + " margin): lower --rounds or --buys");
        }
        return new StockPlan(Math.min(wantedWarmUpBuys, (least - needed) * books), 0);
    }

    /** The most copies of one book that {@code buys} buys in turn over {@code books} books take. */
    static long perBook(long buys, int books) {
        return (buys + books - 1) / books;
    }
}
