package dev.agora.catalog.reservation;

import dev.agora.catalog.book.BookChangeListener;
import dev.agora.catalog.book.BookChangeListener.Announcement;
import dev.agora.catalog.book.BookChanged;
import dev.agora.catalog.book.BookStock;
import dev.agora.common.timing.ServerTiming;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.springframework.stereotype.Service;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Reserves copies of a book for an order, exactly once per order id. A reservation that finds fewer than two being
 * decided is decided alone here, on the request's thread; one that finds more under way is handed to the
 * {@link ReservationWriter}, which decides every reservation waiting in one transaction ({@link DecidingTogether}).
 * One it hands back (its batch failed, its order id was claimed before, its book is unknown) is decided alone here
 * too. Alone means a transaction of its own: take the copies when enough are left ({@link BookStock#take}:
 * never below zero), claim the order id with the decided reservation ({@link Reservations#claim}). A repeat finds the
 * claim taken, rolls back and returns the stored outcome. Running out of stock is an ordinary outcome. The push
 * telling the frontends of a decrement starts before the commit (see {@link BookChangeListener#announce}) and ends
 * before the order service gets its answer, also when the answer is a repeat's.
 *
 * <p>Statements of a new reservation decided alone: the book's conditional {@code UPDATE ... RETURNING}, the
 * reservation's {@code INSERT ... ON CONFLICT DO NOTHING}, then the commit. Of a batch, whatever its size: the books'
 * {@code SELECT ... FOR NO KEY UPDATE}, one {@code INSERT} of every reservation with the books' {@code UPDATE}, then
 * the commit.
 */
@Service
public class ReservingStock {

    private final Reservations reservations;
    private final BookStock stock;
    private final BookChangeListener changes;
    private final TransactionTemplate transactions;
    private final ReservationWriter writer;
    private final DecidingTogether deciding;

    ReservingStock(
            Reservations reservations,
            BookStock stock,
            BookChangeListener changes,
            TransactionTemplate transactions,
            ReservationWriter writer,
            DecidingTogether deciding) {
        this.reservations = reservations;
        this.stock = stock;
        this.changes = changes;
        this.transactions = transactions;
        this.writer = writer;
        this.deciding = deciding;
    }

    /** One reservation of a batch the caller sent together. */
    record Asked(long orderId, long bookId, int quantity) {}

    /**
     * Decides a batch the caller sent in one call together, in one transaction on this thread
     * ({@link DecidingTogether}: the caller already gathered it, so it skips the writer), and awaits every announcement
     * of its books' changes. Answers one result per request, in order; null for a request the batch handed back, which
     * the caller decides alone ({@link #reserveAlone}) as a single reservation would be.
     */
    List<ReservationResult> decideTogether(List<Asked> asked) {
        List<ReservationWriter.Ask> asks = new ArrayList<>(asked.size());
        for (Asked one : asked) {
            asks.add(new ReservationWriter.Ask(one.orderId(), one.bookId(), one.quantity(), new CompletableFuture<>()));
        }
        ServerTiming.measure(ServerTiming.DB, () -> {
            deciding.decide(asks);
            return null;
        });
        List<ReservationResult> results = new ArrayList<>(asks.size());
        for (ReservationWriter.Ask ask : asks) {
            // decide() answers every ask before it returns, a handed-back one with no result.
            ReservationWriter.Answer answer =
                    ask.answer().getNow(new ReservationWriter.Answer(null, Announcement.NONE));
            answer.announced().await();
            results.add(answer.result());
        }
        return results;
    }

    /**
     * What one transaction came to: the order's reservation; {@code claimedNow} when this call decided it;
     * {@code announced} the push of a decrement it made; {@code current} the book as it stands when a repeat found the
     * claim (null for an unknown book).
     */
    private record Decision(Reservation reservation, boolean claimedNow, Announcement announced, BookChanged current) {}

    public ReservationResult reserve(long orderId, long bookId, int quantity) {
        return writer.decide(orderId, bookId, quantity, () -> reserveAlone(orderId, bookId, quantity));
    }

    /** Decides one reservation in a transaction of its own, on this thread (also one a batch call handed back). */
    ReservationResult reserveAlone(long orderId, long bookId, int quantity) {
        Decision decision = ServerTiming.measure(
                ServerTiming.DB, () -> transactions.execute(status -> decide(orderId, bookId, quantity, status)));
        if (decision == null) return new ReservationResult.UnknownBook(bookId);
        Reservation reservation = decision.reservation();
        if (decision.claimedNow()) {
            decision.announced().await();
            return new ReservationResult.Decided(reservation);
        }
        if (!reservation.asks(bookId, quantity)) return new ReservationResult.Conflicting(reservation);
        if (reservation.outcome() == ReservationOutcome.RESERVED && decision.current() != null) {
            // A repeat (a hedged or retried buy, recovery) may be answered while the first call is still pushing its
            // invalidations: announce the book's current version again, so no buy is answered before the frontends
            // have heard of its decrement.
            changes.bookChanged(decision.current());
        }
        return new ReservationResult.Repeated(reservation);
    }

    private Decision decide(long orderId, long bookId, int quantity, TransactionStatus transaction) {
        Optional<BookStock.Take> take = stock.take(bookId, quantity);
        if (take.isEmpty()) {
            // No such book; the order id may still have been used for another one (a conflicting reuse).
            return reservations
                    .find(orderId)
                    .map(existing -> new Decision(existing, false, Announcement.NONE, null))
                    .orElse(null);
        }
        BookStock.Take decided = take.get();
        Reservation reservation = Reservation.of(orderId, bookId, quantity, decided);
        int claimed = reservations.claim(
                orderId,
                bookId,
                quantity,
                reservation.outcome().name(),
                reservation.unitPrice(),
                reservation.total(),
                reservation.stockAfter());
        if (claimed == 0) {
            // Claimed before: give the copies back and answer with the stored reservation.
            transaction.setRollbackOnly();
            return new Decision(reservations.find(orderId).orElseThrow(), false, Announcement.NONE, decided.before());
        }
        Announcement announced =
                decided.after() != null && changes.listening() ? changes.announce(decided.after()) : Announcement.NONE;
        return new Decision(reservation, true, announced, null);
    }

    public Optional<Reservation> find(long orderId) {
        return ServerTiming.measure(ServerTiming.DB, () -> reservations.find(orderId));
    }

    public List<Reservation> findAll(List<Long> orderIds) {
        return ServerTiming.measure(ServerTiming.DB, () -> reservations.findAll(orderIds));
    }
}
