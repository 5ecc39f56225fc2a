package dev.agora.catalog.reservation;

import dev.agora.catalog.book.BookChangeListener.Announcement;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PreDestroy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Group commit of reservations: request threads hand their reservation over and wait; one writer thread takes every
 * reservation waiting (up to {@value #MOST_PER_COMMIT}) and decides them together in one transaction
 * ({@link DecidingTogether}). While its commit waits for the disk, the next reservations gather behind it, so under
 * load a burst of buys costs one commit of the catalog instead of one each. A reservation that finds the writer idle
 * is decided at once, alone: nothing waits for a timer or for company.
 *
 * <p>A reservation the writer cannot decide in a batch (its batch failed, its order id was claimed before, its book
 * is unknown) is handed back, and the request's own thread decides it alone as before ({@link ReservingStock}), so
 * one bad reservation or one locked book never fails the others. The backlog is bounded ({@value #BACKLOG}): past it
 * a request decides alone on its own thread, at the database's pace. Nothing is answered before its commit returned:
 * a crash loses only reservations nobody was told of, and the order service asks again.
 *
 * <p>Meters: {@code agora.reservations.waiting} (handed over, not yet taken), {@code agora.reservations.batch}
 * (reservations per transaction: its count is the transactions) and {@code agora.reservations.alone} (decided on the
 * request's thread, by reason).
 */
@Component
class ReservationWriter {

    private static final Logger log = LoggerFactory.getLogger(ReservationWriter.class);
    /** The writer thread's name (statements are counted by thread in tests). */
    static final String THREAD = "reservation-writer";
    /** Most reservations one transaction decides; bounds how long it holds its books' rows. */
    static final int MOST_PER_COMMIT = 64;
    /** Far more than Tomcat's request threads can hand over at once; reaching it means the database fell behind. */
    static final int BACKLOG = 1_000;

    /**
     * What became of a reservation handed over: its result, or none when the request's thread is to decide it alone;
     * either way the announcement of its book's change to await first (see {@link DecidingTogether}).
     */
    record Answer(ReservationResult result, Announcement announced) {}

    /** A reservation handed over, and its answer to come. */
    record Ask(long orderId, long bookId, int quantity, CompletableFuture<Answer> answer) {

        void answer(ReservationResult result, Announcement announced) {
            answer.complete(new Answer(result, announced));
        }

        void alone(Announcement announced) {
            answer.complete(new Answer(null, announced));
        }
    }

    private final DecidingTogether deciding;
    private final ArrayBlockingQueue<Ask> waiting = new ArrayBlockingQueue<>(BACKLOG);
    private final Counter backlogFull;
    private final Thread writer;
    private volatile boolean stopping;
    private volatile boolean stopped;

    ReservationWriter(DecidingTogether deciding, MeterRegistry meters) {
        this.deciding = deciding;
        this.backlogFull = DecidingTogether.alone(meters, "backlog-full");
        Gauge.builder("agora.reservations.waiting", waiting, ArrayBlockingQueue::size)
                .description("Reservations handed to the writer and not yet taken into a transaction")
                .register(meters);
        Gauge.builder("agora.reservations.waiting.capacity", () -> BACKLOG)
                .description("Most reservations that may wait for the writer; past it each is decided alone")
                .register(meters);
        this.writer = Thread.ofPlatform().name(THREAD).daemon().start(this::run);
    }

    /** Hands the reservation over; empty when the backlog is full or the writer stopped: decide it alone. */
    Optional<CompletableFuture<Answer>> submit(long orderId, long bookId, int quantity) {
        if (stopped) return Optional.empty();
        Ask ask = new Ask(orderId, bookId, quantity, new CompletableFuture<>());
        if (!waiting.offer(ask)) {
            backlogFull.increment();
            return Optional.empty();
        }
        // The writer may have drained its backlog for the last time meanwhile; what it drained, it answered.
        if (stopped && waiting.remove(ask)) return Optional.empty();
        return Optional.of(ask.answer());
    }

    private void run() {
        List<Ask> batch = new ArrayList<>(MOST_PER_COMMIT);
        try {
            while (!stopping) {
                Ask first = waiting.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) continue;
                batch.add(first);
                waiting.drainTo(batch, MOST_PER_COMMIT - 1);
                decide(batch);
                batch.clear();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            stopped = true;
            batch.forEach(ask -> ask.alone(Announcement.NONE));
            for (Ask left; (left = waiting.poll()) != null; ) left.alone(Announcement.NONE);
        }
    }

    private void decide(List<Ask> batch) {
        try {
            deciding.decide(batch);
        } catch (RuntimeException | Error unexpected) {
            log.warn("Deciding {} reservations together failed, each is decided alone", batch.size(), unexpected);
        } finally {
            // Whatever the batch did not answer (an unexpected failure) its own thread decides.
            batch.forEach(ask -> ask.alone(Announcement.NONE));
        }
    }

    /**
     * Runs when the context closes, after the web server finished its requests and before the database pool closes:
     * the batch under way commits and is answered; anything left is handed back to be decided alone.
     */
    @PreDestroy
    void stop() throws InterruptedException {
        stopping = true;
        writer.join(TimeUnit.SECONDS.toMillis(10));
    }
}
