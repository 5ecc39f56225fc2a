package dev.agora.catalog.reservation;

import dev.agora.catalog.book.BookChangeListener;
import java.net.URI;
import java.util.Optional;
import org.springframework.stereotype.Service;

/**
 * Reserves copies of a book for an order, exactly once per order id: a claim and a conditional decrement in
 * one database call. Repeats return the stored outcome. Running out of stock is an ordinary outcome. The
 * frontends hear of a decrement after it committed and before the order service gets its answer, also when
 * the answer is a repeat's.
 */
@Service
public class ReservingStock {

    private final Reservations reservations;
    private final BookChangeListener changes;

    ReservingStock(Reservations reservations, BookChangeListener changes) {
        this.reservations = reservations;
        this.changes = changes;
    }

    /** @param writingFrontend the frontend the buy came through, if the order service named one */
    public ReservationResult reserve(long orderId, long bookId, int quantity, Optional<URI> writingFrontend) {
        return reservations
                .reserve(orderId, bookId, quantity)
                .<ReservationResult>map(claim -> {
                    Reservation reservation = claim.reservation();
                    if (claim.change() != null) {
                        changes.bookChanged(claim.change(), writingFrontend);
                    } else if (!claim.claimedNow()
                            && reservation.asks(bookId, quantity)
                            && reservation.outcome() == ReservationOutcome.RESERVED) {
                        // A repeat (a hedged or retried buy, recovery) may be answered while the first call
                        // is still pushing its invalidations: announce the book's current version again, so
                        // no buy is answered before the frontends have heard of its decrement.
                        reservations.currentState(bookId).ifPresent(now -> changes.bookChanged(now, writingFrontend));
                    }
                    if (claim.claimedNow()) return new ReservationResult.Decided(reservation);
                    return reservation.asks(bookId, quantity)
                            ? new ReservationResult.Repeated(reservation)
                            : new ReservationResult.Conflicting(reservation);
                })
                .orElseGet(() -> new ReservationResult.UnknownBook(bookId));
    }

    public Optional<Reservation> find(long orderId) {
        return reservations.find(orderId);
    }
}
