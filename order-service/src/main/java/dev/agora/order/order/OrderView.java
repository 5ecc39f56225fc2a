package dev.agora.order.order;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.math.BigDecimal;
import java.time.Instant;

/**
 * An order as the API shows it; {@code owner} (the buyer's subject) only for a buyer's order, not an anonymous
 * one; {@code total} only when confirmed, {@code rejection} only when rejected; {@code raffle} only for a winner.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record OrderView(
        long orderId,
        String owner,
        long bookId,
        int quantity,
        OrderStatus status,
        BigDecimal total,
        Rejection rejection,
        Instant createdAt,
        RaffleWin raffle) {

    /** A raffle winner's place among all confirmed buys and its refund, the order's total. */
    record RaffleWin(long position, BigDecimal refunded) {}

    static OrderView of(Order order) {
        return new OrderView(
                order.id(),
                order.owner(),
                order.bookId(),
                order.quantity(),
                order.status(),
                order.total(),
                order.rejection(),
                order.createdAt(),
                order.wonTheRaffle() ? new RaffleWin(order.confirmation(), order.refunded()) : null);
    }
}
