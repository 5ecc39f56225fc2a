package dev.agora.catalog.reservation;

public enum ReservationOutcome {
    /** The copies were taken from stock for this order. */
    RESERVED,
    /** Not enough copies when the order asked; nothing was taken. */
    OUT_OF_STOCK
}
