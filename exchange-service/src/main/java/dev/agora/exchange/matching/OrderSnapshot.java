package dev.agora.exchange.matching;

import java.math.BigDecimal;
import java.util.List;

/**
 * An order as a query or cancel reports it, with the protocol's signs (negative shares for sells).
 *
 * @param open signed open shares, null when nothing is open
 * @param canceled null unless the order was canceled
 * @param executions the order's executions in the order they happened; empty while {@code executionsUpTo} is set
 * @param executionsUpTo 0 when {@code executions} is complete; otherwise the executions are in the store, and those
 *     with ids up to this one are the order's as of this snapshot ({@link StoredResults} reads them)
 */
public record OrderSnapshot(
        long id,
        String accountId,
        String symbol,
        BigDecimal amount,
        BigDecimal limit,
        BigDecimal open,
        Cancellation canceled,
        List<SignedFill> executions,
        long executionsUpTo) {

    public record Cancellation(BigDecimal shares, long time) {}

    public record SignedFill(BigDecimal shares, BigDecimal price, long time) {}

    /** Whether the executions must still be read from the store. */
    public boolean executionsStored() {
        return executionsUpTo > 0;
    }
}
