package dev.agora.order.order;

public enum OrderStatus {
    /** Recorded; the catalog has not (or not yet known to have) decided on its stock. */
    PENDING,
    /** The catalog reserved the copies. */
    CONFIRMED,
    /** The catalog refused; {@link Rejection} says why. */
    REJECTED
}
