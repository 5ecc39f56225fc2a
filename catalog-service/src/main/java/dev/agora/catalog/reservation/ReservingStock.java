package dev.agora.catalog.reservation;

import dev.agora.catalog.book.BookChangeListener;
import dev.agora.catalog.book.BookChangeListener.Announcement;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Service;

/**
 * Reserves copies of a book for an order, exactly once per order id: a claim and a conditional decrement in
 * one database call. Repeats return the stored outcome. Running out of stock is an ordinary outcome. The
 * push telling the frontends of a decrement starts before its commit (see
 * {@link BookChangeListener#announce}) and ends before the order service gets its answer, also when the
 * answer is a repeat's.
 */
@Service
public class ReservingStock {

    private final Reservations reservations;
    private final BookChangeListener changes;

    ReservingStock(Reservations reservations, BookChangeListener changes) {
        this.reservations = reservations;
        this.changes = changes;
    }

    public ReservationResult reserve(long orderId, long bookId, int quantity) {
        Optional<Reservations.Claimed<Announcement>> reserved = changes.listening()
                ? reservations.reserve(
                        orderId,
                        bookId,
                        quantity,
                        claim -> claim.change() == null ? Announcement.NONE : changes.announce(claim.change()))
                : reservations
                        .reserve(orderId, bookId, quantity)
                        .map(claim -> new Reservations.Claimed<>(claim, Announcement.NONE));
        return reserved.<ReservationResult>map(claimed -> {
                    Reservations.Claim claim = claimed.claim();
                    Reservation reservation = claim.reservation();
                    if (claim.change() != null) {
                        claimed.startedBeforeCommit().await();
                    } else if (!claim.claimedNow()
                            && reservation.asks(bookId, quantity)
                            && reservation.outcome() == ReservationOutcome.RESERVED) {
                        // A repeat (a hedged or retried buy, recovery) may be answered while the first call
                        // is still pushing its invalidations: announce the book's current version again, so
                        // no buy is answered before the frontends have heard of its decrement.
                        reservations.currentState(bookId).ifPresent(changes::bookChanged);
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

    public List<Reservation> findAll(List<Long> orderIds) {
        return reservations.findAll(orderIds);
    }
}
