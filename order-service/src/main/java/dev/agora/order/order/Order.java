package dev.agora.order.order;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * One buy. {@code owner} is the buyer (their token's subject), null for an anonymous classic buy placed by a
 * frontend; {@code total} is set when CONFIRMED, {@code rejection} when REJECTED. {@code confirmation} is its
 * place among all confirmed buys (the raffle's count; null until its row is confirmed, and for orders confirmed
 * before the raffle), {@code refunded} the refund of a raffle winner (its total), null for everyone else.
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
        Instant createdAt,
        Long confirmation,
        BigDecimal refunded) {

    /** A PENDING order as its insert left it. */
    static Order pending(long id, String idempotencyKey, String owner, long bookId, int quantity, Instant createdAt) {
        return new Order(
                id, idempotencyKey, owner, bookId, quantity, OrderStatus.PENDING, null, null, createdAt, null, null);
    }

    boolean isFor(long bookId, int quantity) {
        return this.bookId == bookId && this.quantity == quantity;
    }

    /** This order in its final state (the row as {@link Orders#finish} writes it). */
    Order finished(OrderStatus status, BigDecimal total, Rejection rejection) {
        return new Order(id, idempotencyKey, owner, bookId, quantity, status, total, rejection, createdAt, null, null);
    }

    public boolean wonTheRaffle() {
        return refunded != null;
    }

    public boolean isPending() {
        return status == OrderStatus.PENDING;
    }
}
