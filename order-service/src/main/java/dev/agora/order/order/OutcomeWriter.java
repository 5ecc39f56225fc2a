package dev.agora.order.order;

import dev.agora.common.limits.BoundedExecutors;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PreDestroy;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
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
 *
 * <p>Outcomes that wait are written together: a writer takes every outcome waiting (up to {@value #MOST_PER_COMMIT})
 * and records them in one transaction ({@link Orders#recordAll}), so under load a burst of buys costs one commit and
 * one turn on the raffle tally's row instead of one each. A buy that finds a writer free is written alone, at once.
 * When a shared write fails, each of its outcomes is tried again alone, so one bad row strands no other.
 *
 * <p>Its meters show a slow order database before buyers feel it: {@code agora.orders.outcomes.backlog} (answered,
 * not yet written), {@code agora.orders.outcomes.inline} (written on the buy's own thread because the backlog was
 * full) and {@code agora.orders.outcomes.failed} (left to recovery).
 */
@Component
class OutcomeWriter {

    private static final Logger log = LoggerFactory.getLogger(OutcomeWriter.class);
    private static final int WRITERS = 2;
    /** Beyond this backlog the buy's own thread writes its outcome, which slows buyers to the database's pace. */
    private static final int BACKLOG = 1_000;
    /** Most outcomes one transaction records; bounds how long it holds the raffle tally's row. */
    static final int MOST_PER_COMMIT = 64;

    private final Orders orders;
    private final Counter inline;
    private final Counter failed;
    private final ThreadPoolExecutor writers;
    /**
     * Outcomes answered and not yet taken by a writer. Each is also one task of {@link #writers} (its queue is the
     * backlog and its bound), and a task writes whatever is waiting when it runs, so later tasks may find nothing.
     */
    private final ConcurrentLinkedQueue<Orders.Outcome> waiting = new ConcurrentLinkedQueue<>();

    OutcomeWriter(Orders orders, MeterRegistry meters) {
        this.orders = orders;
        this.inline = Counter.builder("agora.orders.outcomes.inline")
                .description("Outcomes written on the buy's own thread because the backlog was full")
                .register(meters);
        this.failed = Counter.builder("agora.orders.outcomes.failed")
                .description("Outcomes whose write failed after the answer; recovery writes them")
                .register(meters);
        this.writers = new ThreadPoolExecutor(
                WRITERS,
                WRITERS,
                0,
                TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(BACKLOG),
                Thread.ofPlatform().name("order-outcome-writer-", 1).daemon().factory(),
                (write, full) -> {
                    inline.increment();
                    write.run();
                });
        // Also executor_* and agora_executor_rejected_total{name="agora.orders.outcomes"} (the inline writes again),
        // so this pool reads like every other bounded one.
        BoundedExecutors.monitor(meters, writers, "agora.orders.outcomes");
        Gauge.builder("agora.orders.outcomes.backlog", writers, pool -> pool.getQueue()
                        .size())
                .description("Buys answered whose outcome waits for a writer")
                .register(meters);
    }

    /** The order in its final state, at once; its row follows. */
    Order write(Order pending, OrderStatus status, BigDecimal total, Rejection rejection) {
        waiting.add(new Orders.Outcome(pending.id(), status, total, rejection));
        writers.execute(this::writeWaiting);
        return pending.finished(status, total, rejection);
    }

    /** Writes the outcomes waiting now, in one transaction; none when an earlier task took them. */
    private void writeWaiting() {
        List<Orders.Outcome> taken = new ArrayList<>();
        for (Orders.Outcome next; taken.size() < MOST_PER_COMMIT && (next = waiting.poll()) != null; ) taken.add(next);
        if (taken.isEmpty()) return;
        if (taken.size() == 1) {
            writeAlone(taken.getFirst());
            return;
        }
        try {
            orders.recordAll(taken);
        } catch (RuntimeException e) {
            log.debug("Writing {} outcomes together failed, writing each alone", taken.size(), e);
            taken.forEach(this::writeAlone);
        }
    }

    private void writeAlone(Orders.Outcome outcome) {
        try {
            orders.recordAll(List.of(outcome));
        } catch (RuntimeException e) {
            failed.increment();
            log.warn("Outcome of order {} not written, recovery will: {}", outcome.orderId(), e.getMessage());
        }
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
