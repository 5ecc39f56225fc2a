package dev.agora.order.order;

public enum Rejection {
    OUT_OF_STOCK,
    UNKNOWN_BOOK,
    /** The catalog already holds a different reservation under this order id: the two databases disagree. */
    RESERVATION_CONFLICT
}
