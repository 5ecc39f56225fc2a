package dev.agora.catalog.reservation;

import dev.agora.catalog.book.BookChangeListener.Announcement;
import dev.agora.common.batch.GroupCommit;
import dev.agora.common.timing.ServerTiming;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PreDestroy;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.springframework.stereotype.Component;

/**
 * Group commit ({@link GroupCommit}) of reservations. A reservation that finds fewer than {@value #OWN_WRITES} being
 * decided is decided at once, alone, on its request's thread. One that finds more under way is handed over and waits:
 * one writer thread takes every reservation waiting (up to {@value #MOST_PER_COMMIT}) and decides them together in
 * one transaction ({@link DecidingTogether}). While its commit waits for the disk, the next reservations gather behind it,
 * so under load a burst of buys costs one commit of the catalog instead of one each. Nothing waits for a timer or for
 * company.
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

    /** The writer thread's name (statements are counted by thread in tests). */
    static final String THREAD = "reservation-writer";
    /** Most reservations one transaction decides; bounds how long it holds its books' rows. */
    static final int MOST_PER_COMMIT = 64;
    /** Reservations being decided below which a request decides its own (why two: {@link GroupCommit}). */
    static final int OWN_WRITES = 2;
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

    private final GroupCommit<Ask> commits;

    ReservationWriter(DecidingTogether deciding, MeterRegistry meters) {
        this.commits = new GroupCommit<>(
                THREAD,
                MOST_PER_COMMIT,
                OWN_WRITES,
                BACKLOG,
                deciding::decide,
                ask -> ask.alone(Announcement.NONE),
                DecidingTogether.alone(meters, "backlog-full"),
                meters,
                "agora.reservations");
    }

    /**
     * The reservation's result: decided {@code alone} on the request's thread, or by the writer, once the announcement
     * of its book's change was acknowledged; {@code alone} after all when the writer handed it back.
     */
    ReservationResult decide(long orderId, long bookId, int quantity, Supplier<ReservationResult> alone) {
        return commits.write(new Ask(orderId, bookId, quantity, new CompletableFuture<>()), alone, ask -> {
            Answer answer =
                    ServerTiming.measure(ServerTiming.DB, () -> ask.answer().join());
            answer.announced().await();
            return answer.result();
        });
    }

    /**
     * Runs when the context closes, after the web server finished its requests and before the database pool closes:
     * the batch under way commits and is answered; anything left is handed back to be decided alone.
     */
    @PreDestroy
    void stop() throws InterruptedException {
        commits.close();
    }
}
