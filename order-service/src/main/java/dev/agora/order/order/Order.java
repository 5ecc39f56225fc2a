package dev.agora.order.order;

import java.math.BigDecimal;
import java.time.Instant;

/** One buy. {@code total} is set when CONFIRMED, {@code rejection} when REJECTED. */
public record Order(
        long id,
        String idempotencyKey,
        long bookId,
        int quantity,
        OrderStatus status,
        BigDecimal total,
        Rejection rejection,
        Instant createdAt) {

    boolean isFor(long bookId, int quantity) {
        return this.bookId == bookId && this.quantity == quantity;
    }

    /** This order in its final state (the row as {@link Orders#finish} writes it). */
    Order finished(OrderStatus status, BigDecimal total, Rejection rejection) {
        return new Order(id, idempotencyKey, bookId, quantity, status, total, rejection, createdAt);
    }

    public boolean isPending() {
        return status == OrderStatus.PENDING;
    }
}
