package dev.agora.order.order;

import dev.agora.common.batch.GroupCommit;
import dev.agora.common.timing.ServerTiming;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PreDestroy;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Group commit ({@link GroupCommit}) of the buys' first step, the PENDING order. A buy records its own order, alone, on
 * its own thread while fewer than {@value #OWN_WRITES} orders are being recorded (by buyers or by the writer thread;
 * why two: {@link GroupCommit}); one that finds more under way hands its order over and waits: one writer thread takes
 * every order waiting (up to {@value #MOST_PER_COMMIT}) and records them in one statement and one durable commit
 * ({@link Orders#insertAllPending}), while the next ones gather behind that commit. Nothing waits for a timer. Nobody
 * is answered before the commit returned, so the saga's next step (the catalog) is asked only for an order that
 * survives a crash. So at moderate concurrency, where three PENDING inserts rarely meet, a buy almost always records
 * its own order, and hand-offs begin where commits start to be shared.
 *
 * <p>The same key of the same owner twice in one batch is inserted once; the second is told the key is taken and reads
 * the order that has it, as it would after the first had committed. When a batch fails, each of its orders is recorded
 * alone on its buy's own thread ({@link Orders#insertPending}), so one bad row strands no other; so is an order that
 * finds the backlog ({@value #BACKLOG}) full.
 *
 * <p>Meters: {@code agora.orders.pending.batch} (orders per transaction of the writer thread; its count is those
 * transactions), {@code agora.orders.pending.waiting} and {@code agora.orders.pending.alone} (handed back to the buy's
 * thread, by reason).
 */
@Component
class PendingWriter {

    private static final Logger log = LoggerFactory.getLogger(PendingWriter.class);
    static final String THREAD = "order-pending-writer";
    static final int MOST_PER_COMMIT = 64;
    /** Orders being recorded below which a buy records its own (why two: {@link GroupCommit}). */
    static final int OWN_WRITES = 2;

    static final int BACKLOG = 1_000;

    /** The order inserted or empty (key taken); {@code alone} when the buy's thread is to insert it itself. */
    private record Answer(boolean alone, Optional<Order> inserted) {

        static final Answer ALONE = new Answer(true, Optional.empty());
        static final Answer TAKEN = new Answer(false, Optional.empty());
    }

    /** A buy's order handed over, and where its answer goes. */
    private record Ask(Orders.NewOrder order, CompletableFuture<Answer> answer) {

        void alone() {
            answer.complete(Answer.ALONE);
        }
    }

    private final Orders orders;
    private final DistributionSummary batches;
    private final Counter batchFailed;
    private final GroupCommit<Ask> commits;

    PendingWriter(Orders orders, MeterRegistry meters) {
        this.orders = orders;
        this.batches = DistributionSummary.builder("agora.orders.pending.batch")
                .description("PENDING orders recorded together in one transaction (its count: the transactions)")
                .baseUnit("orders")
                .register(meters);
        this.batchFailed = alone(meters, "batch-failed");
        // Last: the writer thread may call write() at once, and it reads the fields above.
        this.commits = new GroupCommit<>(
                THREAD,
                MOST_PER_COMMIT,
                OWN_WRITES,
                BACKLOG,
                this::write,
                Ask::alone,
                alone(meters, "backlog-full"),
                meters,
                "agora.orders.pending");
    }

    private static Counter alone(MeterRegistry meters, String reason) {
        return Counter.builder("agora.orders.pending.alone")
                .description("PENDING orders handed back to the buy's own thread")
                .tag("reason", reason)
                .register(meters);
    }

    /**
     * Records a PENDING order unless its owner already used the key, as {@link Orders#insertPending}: the order, or
     * empty when the key is taken (the caller reads the order that has it).
     */
    Optional<Order> insert(String idempotencyKey, String owner, long bookId, int quantity) {
        return commits.write(
                new Ask(new Orders.NewOrder(idempotencyKey, owner, bookId, quantity), new CompletableFuture<>()),
                () -> orders.insertPending(idempotencyKey, owner, bookId, quantity),
                ask -> {
                    Answer answer = ServerTiming.measure(
                            ServerTiming.DB, () -> ask.answer().join());
                    return answer.alone() ? null : answer.inserted();
                });
    }

    /** The writer thread's batch; what it leaves unanswered GroupCommit hands back to the buys' own threads. */
    private void write(List<Ask> batch) {
        if (batch.size() == 1) writeOne(batch.getFirst());
        else writeTogether(batch);
    }

    /** The same statement as a buy's own, not the batch's. */
    private void writeOne(Ask ask) {
        Orders.NewOrder order = ask.order();
        try {
            ask.answer()
                    .complete(new Answer(
                            false,
                            orders.insertPending(
                                    order.idempotencyKey(), order.owner(), order.bookId(), order.quantity())));
        } catch (RuntimeException | Error failed) {
            log.debug("Recording a PENDING order on the writer thread failed, its buy records it", failed);
            batchFailed.increment();
        } finally {
            batches.record(1);
        }
    }

    private void writeTogether(List<Ask> batch) {
        List<Ask> first = new ArrayList<>(batch.size());
        List<Ask> repeats = new ArrayList<>();
        Set<Orders.OwnersKey> keys = new HashSet<>();
        for (Ask ask : batch) {
            if (keys.add(ask.order().ownersKey())) first.add(ask);
            else repeats.add(ask);
        }
        try {
            List<Optional<Order>> inserted =
                    orders.insertAllPending(first.stream().map(Ask::order).toList());
            for (int i = 0; i < first.size(); i++) {
                first.get(i).answer().complete(new Answer(false, inserted.get(i)));
            }
            repeats.forEach(ask -> ask.answer().complete(Answer.TAKEN));
        } catch (RuntimeException | Error failed) {
            log.debug("Recording {} PENDING orders together failed, each is recorded alone", batch.size(), failed);
            batchFailed.increment(batch.size());
        } finally {
            batches.record(first.size());
        }
    }

    /**
     * Runs when the context closes, after the web server finished its requests and before the database pool closes:
     * the batch under way commits and is answered; anything left is handed back.
     */
    @PreDestroy
    void stop() throws InterruptedException {
        commits.close();
    }
}
