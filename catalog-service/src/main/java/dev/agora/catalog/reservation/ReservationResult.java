package dev.agora.catalog.reservation;

/** What asking for stock can come to; none of these is an error of the catalog. */
public sealed interface ReservationResult {

    /** The first request for this order: {@code reservation} was decided and stored just now. */
    record Decided(Reservation reservation) implements ReservationResult {}

    /** A repeat of an earlier request for the same order: its stored outcome, nothing changed. */
    record Repeated(Reservation reservation) implements ReservationResult {}

    /** The order id was already used for another book or quantity; nothing changed. */
    record Conflicting(Reservation existing) implements ReservationResult {}

    /** No such book; nothing was stored. */
    record UnknownBook(long bookId) implements ReservationResult {}
}
