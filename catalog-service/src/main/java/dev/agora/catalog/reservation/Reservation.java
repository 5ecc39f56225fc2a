package dev.agora.catalog.reservation;

import java.math.BigDecimal;

/**
 * The first and only outcome of an order's request for stock. {@code total} is null when nothing was
 * reserved; {@code stockAfter} is the stock the decision saw (after the decrement when reserved).
 */
public record Reservation(
        long orderId,
        long bookId,
        int quantity,
        ReservationOutcome outcome,
        BigDecimal unitPrice,
        BigDecimal total,
        long stockAfter) {

    boolean asks(long bookId, int quantity) {
        return this.bookId == bookId && this.quantity == quantity;
    }
}
