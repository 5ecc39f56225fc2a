package dev.agora.catalog.reservation;

import dev.agora.catalog.book.BookChangeListener;
import java.util.Optional;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Reserves copies of a book for an order, exactly once per order id: one short transaction of a claim
 * (INSERT ... ON CONFLICT DO NOTHING) and a conditional decrement. Repeats return the stored outcome.
 * Running out of stock is an ordinary outcome. The frontends hear of a decrement after it committed and
 * before the order service gets its answer.
 */
@Service
public class ReservingStock {

    private final Reservations reservations;
    private final TransactionTemplate transaction;
    private final BookChangeListener changes;

    ReservingStock(Reservations reservations, TransactionTemplate transaction, BookChangeListener changes) {
        this.reservations = reservations;
        this.transaction = transaction;
        this.changes = changes;
    }

    public ReservationResult reserve(long orderId, long bookId, int quantity) {
        Decision decision = transaction.execute(status -> decide(orderId, bookId, quantity));
        if (decision.taken() != null) changes.bookChanged(decision.taken().change());
        return decision.result();
    }

    private Decision decide(long orderId, long bookId, int quantity) {
        var claimed = reservations.claim(orderId, bookId, quantity);
        if (claimed.isEmpty()) return new Decision(settled(orderId, bookId, quantity), null);
        var taken = reservations.take(orderId, bookId, quantity);
        return taken.map(t -> new Decision(new ReservationResult.Decided(t.reservation()), t))
                .orElseGet(() -> new Decision(new ReservationResult.Decided(claimed.get()), null));
    }

    /** The claim found nothing to insert: either the order already has a reservation or the book is unknown. */
    private ReservationResult settled(long orderId, long bookId, int quantity) {
        return reservations
                .find(orderId)
                .<ReservationResult>map(existing -> existing.asks(bookId, quantity)
                        ? new ReservationResult.Repeated(existing)
                        : new ReservationResult.Conflicting(existing))
                .orElseGet(() -> new ReservationResult.UnknownBook(bookId));
    }

    public Optional<Reservation> find(long orderId) {
        return reservations.find(orderId);
    }

    private record Decision(ReservationResult result, Reservations.Taken taken) {}
}
