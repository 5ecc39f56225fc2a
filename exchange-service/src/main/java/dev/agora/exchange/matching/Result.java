package dev.agora.exchange.matching;

import java.math.BigDecimal;

/** What one command did. Expected failures are {@link Rejected} values, never exceptions. */
public sealed interface Result {

    record AccountCreated(String accountId) implements Result {}

    record SharesAdded(String symbol, String accountId, BigDecimal shares) implements Result {}

    record OrderOpened(long orderId) implements Result {}

    record OrderStatus(OrderSnapshot order) implements Result {}

    record OrderCanceled(OrderSnapshot order) implements Result {}

    record Rejected(Rejection reason) implements Result {}

    /**
     * A query or cancel of an order the engine no longer holds: if it exists it is closed, and only the store knows
     * it. {@link StoredResults} answers it; nothing was changed.
     *
     * @param accountId the account that asked (the order must be its own)
     * @param cancel whether a cancel asked (a closed order has nothing open to cancel)
     * @param executionsUpTo the last execution id when the engine answered
     */
    record StoredOrder(long orderId, String accountId, boolean cancel, long executionsUpTo) implements Result {}

    static Rejected rejected(Rejection reason) {
        return new Rejected(reason);
    }
}
