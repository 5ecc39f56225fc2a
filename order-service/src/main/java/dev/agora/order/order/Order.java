package dev.agora.order.order;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * One buy. {@code owner} is the buyer (their token's subject), null for an anonymous classic buy placed by a
 * frontend; {@code total} is set when CONFIRMED, {@code rejection} when REJECTED.
 */
public record Order(
        long id,
        String idempotencyKey,
        String owner,
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
        return new Order(id, idempotencyKey, owner, bookId, quantity, status, total, rejection, createdAt);
    }

    public boolean isPending() {
        return status == OrderStatus.PENDING;
    }
}
