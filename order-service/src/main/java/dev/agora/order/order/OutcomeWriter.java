package dev.agora.order.order;

import jakarta.annotation.PreDestroy;
import java.math.BigDecimal;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Writes a buy's outcome after the buy has been answered. The outcome is a copy of the catalog's reservation,
 * which is durable and decided once per order id, so neither the answer nor its correctness waits for this
 * write:
 *
 * <ul>
 *   <li>until the row is written, a replica that reads the order PENDING asks the catalog for the reservation
 *       ({@link FindingOrder});
 *   <li>a crash or failed write leaves the row PENDING, and recovery asks the same reservation, which answers
 *       the same.
 * </ul>
 *
 * Only outcomes the catalog records are written this way; the others are written before the answer.
 */
@Component
class OutcomeWriter {

    private static final Logger log = LoggerFactory.getLogger(OutcomeWriter.class);
    private static final int WRITERS = 2;
    /** Beyond this backlog the buy's own thread writes its outcome, which slows buyers to the database's pace. */
    private static final int BACKLOG = 1_000;

    private final Orders orders;
    private final ThreadPoolExecutor writers = new ThreadPoolExecutor(
            WRITERS,
            WRITERS,
            0,
            TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(BACKLOG),
            Thread.ofPlatform().name("order-outcome-writer-", 1).daemon().factory(),
            (write, full) -> write.run());

    OutcomeWriter(Orders orders) {
        this.orders = orders;
    }

    /** The order in its final state, at once; its row follows. */
    Order write(Order pending, OrderStatus status, BigDecimal total, Rejection rejection) {
        writers.execute(() -> {
            try {
                orders.finish(pending.id(), status, total, rejection);
            } catch (RuntimeException e) {
                log.warn("Outcome of order {} not written, recovery will: {}", pending.id(), e.getMessage());
            }
        });
        return pending.finished(status, total, rejection);
    }

    /** Runs after the web server has finished its requests and before the database pool closes. */
    @PreDestroy
    void finishWrites() throws InterruptedException {
        writers.shutdown();
        if (!writers.awaitTermination(10, TimeUnit.SECONDS)) {
            log.warn(
                    "{} outcomes left unwritten at shutdown, recovery will write them",
                    writers.getQueue().size());
        }
    }
}
