package dev.agora.catalog.reservation;

import dev.agora.catalog.book.BookChangeListener;
import dev.agora.catalog.book.BookChangeListener.Announcement;
import dev.agora.catalog.book.BookChanged;
import dev.agora.catalog.book.BookStock;
import dev.agora.catalog.book.LockedStock;
import dev.agora.catalog.reservation.ReservationWriter.Ask;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Decides a batch of reservations in one transaction, on the {@link ReservationWriter}'s thread, with the guarantees
 * of a reservation decided alone ({@link ReservingStock}):
 *
 * <ol>
 *   <li>the batch's books are locked in id order ({@link BookStock#lockAll}), so two catalog replicas' batches wait
 *       for each other instead of deadlocking; a batch waits for a lock at most {@value #LOCK_WAIT} (a frozen
 *       replica's row), not the sessions' 1 s;
 *   <li>the reservations are decided in Java one after another, in the order they arrived, each against the stock the
 *       ones before it left ({@link LockedStock}): never below zero, out of stock an ordinary outcome;
 *   <li>one statement stores every decision unless its order id was claimed before and takes the copies
 *       ({@link Reservations#claimAll}); an order id claimed before rolls the whole batch back, and the batch is decided
 *       again without it (once; then each is decided alone);
 *   <li>each book changed is announced to the frontends once, with the version the last take gave it, before the
 *       commit (as a single reservation does), and each reservation of that book awaits it on its own thread;
 *   <li>the commit waits for the disk; only then is anyone answered.
 * </ol>
 *
 * A repeat inside the batch (the same order id twice) is answered with the first one's reservation, as a repeat
 * later would be, and takes nothing. Reservations of an unknown book, whose order id was claimed before, or of a batch
 * that failed (a lock waited for too long, a connection lost, any statement refused) are handed back and decided
 * alone on their request's thread: answered as they always were, a batch's failure fails none of them.
 */
@Component
class DecidingTogether {

    private static final Logger log = LoggerFactory.getLogger(DecidingTogether.class);
    /**
     * Longest a batch waits for a row lock. Other batches (the other replica's) hold a book for a statement and a
     * commit, far less than this; a replica frozen inside its transaction holds it until PostgreSQL ends its session,
     * and the batch's reservations then go alone, each waiting the sessions' own lock timeout on its own thread,
     * instead of every reservation behind the batch waiting on the writer.
     */
    static final String LOCK_WAIT = "200ms";
    /** Transactions one batch gets before what is left of it is decided alone. */
    private static final int ROUNDS = 2;

    private final Reservations reservations;
    private final BookStock stock;
    private final BookChangeListener changes;
    private final TransactionTemplate transactions;
    private final DistributionSummary batches;
    private final Counter failedBatches;
    private final Counter claimedBefore;
    private final Counter unknownBooks;

    DecidingTogether(
            Reservations reservations,
            BookStock stock,
            BookChangeListener changes,
            TransactionTemplate transactions,
            MeterRegistry meters) {
        this.reservations = reservations;
        this.stock = stock;
        this.changes = changes;
        this.transactions = transactions;
        this.batches = DistributionSummary.builder("agora.reservations.batch")
                .description("Reservations decided together in one transaction (its count: the transactions)")
                .baseUnit("reservations")
                .register(meters);
        this.failedBatches = alone(meters, "batch-failed");
        this.claimedBefore = alone(meters, "claimed-before");
        this.unknownBooks = alone(meters, "unknown-book");
    }

    static Counter alone(MeterRegistry meters, String reason) {
        return Counter.builder("agora.reservations.alone")
                .description("Reservations handed back to their request's thread to be decided alone")
                .tag("reason", reason)
                .register(meters);
    }

    /** Answers every ask, or hands it back to be decided alone. */
    void decide(List<Ask> asks) {
        List<Ask> left = asks;
        for (int round = 0; round < ROUNDS && !left.isEmpty(); round++) left = round(left);
        for (Ask ask : left) {
            claimedBefore.increment();
            ask.alone(Announcement.NONE);
        }
    }

    /** What one transaction came to: decisions by order id, or the order ids that were claimed before (rolled back). */
    private record Attempt(Map<Long, Reservation> decided, Set<Long> claimedBefore) {}

    /** One transaction; returns the asks to decide again in another (none when this one was answered). */
    private List<Ask> round(List<Ask> asks) {
        Map<Long, Ask> deciding = new LinkedHashMap<>(); // the first ask of each order id decides it
        Map<Long, Integer> asksPerBook = new HashMap<>();
        for (Ask ask : asks) {
            deciding.putIfAbsent(ask.orderId(), ask);
            asksPerBook.merge(ask.bookId(), 1, Integer::sum);
        }
        Map<Long, Announcement> announced = new HashMap<>();
        Attempt attempt;
        try {
            attempt = transactions.execute(
                    transaction -> attempt(deciding.values(), asksPerBook, announced, transaction));
        } catch (RuntimeException | Error failed) {
            log.debug("Deciding {} reservations together failed, each is decided alone", asks.size(), failed);
            for (Ask ask : asks) {
                failedBatches.increment();
                ask.alone(announced.getOrDefault(ask.bookId(), Announcement.NONE));
            }
            return List.of();
        } finally {
            batches.record(asks.size());
        }
        if (!attempt.claimedBefore().isEmpty()) {
            List<Ask> again = new ArrayList<>();
            for (Ask ask : asks) {
                if (!attempt.claimedBefore().contains(ask.orderId())) {
                    again.add(ask);
                    continue;
                }
                claimedBefore.increment();
                ask.alone(Announcement.NONE);
            }
            return again;
        }
        for (Ask ask : asks) {
            // Every ask of an announced book awaits the announcement once, whatever its answer: it counts on that.
            Announcement announcement = announced.getOrDefault(ask.bookId(), Announcement.NONE);
            Reservation reservation = attempt.decided().get(ask.orderId());
            if (reservation == null) {
                unknownBooks.increment();
                ask.alone(announcement);
            } else if (deciding.get(ask.orderId()) == ask) {
                ask.answer(new ReservationResult.Decided(reservation), announcement);
            } else if (reservation.asks(ask.bookId(), ask.quantity())) {
                ask.answer(new ReservationResult.Repeated(reservation), announcement);
            } else {
                ask.answer(new ReservationResult.Conflicting(reservation), announcement);
            }
        }
        return List.of();
    }

    private Attempt attempt(
            Collection<Ask> deciding,
            Map<Long, Integer> asksPerBook,
            Map<Long, Announcement> announced,
            TransactionStatus transaction) {
        Set<Long> bookIds = new TreeSet<>();
        for (Ask ask : deciding) bookIds.add(ask.bookId());
        LockedStock books = stock.lockAll(bookIds, LOCK_WAIT);
        Map<Long, Reservation> decided = new LinkedHashMap<>();
        for (Ask ask : deciding) {
            books.take(ask.bookId(), ask.quantity())
                    .ifPresent(take -> decided.put(
                            ask.orderId(), Reservation.of(ask.orderId(), ask.bookId(), ask.quantity(), take)));
        }
        if (decided.isEmpty()) return new Attempt(decided, Set.of());
        List<Long> claimed = claimAll(decided.values(), books);
        if (claimed.size() < decided.size()) {
            // Claimed before: give every copy back and decide the batch again without those order ids.
            transaction.setRollbackOnly();
            Set<Long> before = new HashSet<>(decided.keySet());
            claimed.forEach(before::remove);
            return new Attempt(Map.of(), before);
        }
        if (changes.listening()) {
            for (BookChanged after : books.changes()) {
                announced.put(after.bookId(), changes.announce(after, asksPerBook.get(after.bookId())));
            }
        }
        return new Attempt(decided, Set.of());
    }

    private List<Long> claimAll(Collection<Reservation> decided, LockedStock books) {
        int n = decided.size();
        Long[] orderIds = new Long[n];
        Long[] bookIds = new Long[n];
        Integer[] quantities = new Integer[n];
        String[] outcomes = new String[n];
        BigDecimal[] unitPrices = new BigDecimal[n];
        BigDecimal[] totals = new BigDecimal[n];
        Long[] stocksAfter = new Long[n];
        int i = 0;
        for (Reservation reservation : decided) {
            orderIds[i] = reservation.orderId();
            bookIds[i] = reservation.bookId();
            quantities[i] = reservation.quantity();
            outcomes[i] = reservation.outcome().name();
            unitPrices[i] = reservation.unitPrice();
            totals[i] = reservation.total();
            stocksAfter[i] = reservation.stockAfter();
            i++;
        }
        return reservations.claimAll(
                orderIds,
                bookIds,
                quantities,
                outcomes,
                unitPrices,
                totals,
                stocksAfter,
                books.takenBookIds(),
                books.copiesTaken(),
                books.takes());
    }
}
