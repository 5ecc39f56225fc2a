package dev.agora.exchange.matching;

import java.math.BigDecimal;
import java.util.List;

/**
 * An order as a query or cancel reports it, with the protocol's signs (negative shares for sells).
 *
 * @param open signed open shares, null when nothing is open
 * @param canceled null unless the order was canceled
 */
public record OrderSnapshot(
        long id,
        String accountId,
        String symbol,
        BigDecimal amount,
        BigDecimal limit,
        BigDecimal open,
        Cancellation canceled,
        List<SignedFill> executions) {

    public record Cancellation(BigDecimal shares, long time) {}

    public record SignedFill(BigDecimal shares, BigDecimal price, long time) {}
}
