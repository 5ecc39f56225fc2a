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

    static Rejected rejected(Rejection reason) {
        return new Rejected(reason);
    }
}
