package dev.agora.catalog.reservation;

import dev.agora.catalog.book.BookStock;
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

    /** The order's reservation as a take of its copies decided it. */
    static Reservation of(long orderId, long bookId, int quantity, BookStock.Take take) {
        return new Reservation(
                orderId,
                bookId,
                quantity,
                take.taken() ? ReservationOutcome.RESERVED : ReservationOutcome.OUT_OF_STOCK,
                take.unitPrice(),
                take.taken() ? take.unitPrice().multiply(BigDecimal.valueOf(quantity)) : null,
                take.stockAfter());
    }

    boolean asks(long bookId, int quantity) {
        return this.bookId == bookId && this.quantity == quantity;
    }
}
