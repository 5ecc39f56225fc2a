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

    public boolean isPending() {
        return status == OrderStatus.PENDING;
    }
}
