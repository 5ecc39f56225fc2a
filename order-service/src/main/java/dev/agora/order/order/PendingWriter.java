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
 * Group commit ({@link GroupCommit}) of the buys' first step, the PENDING order. A buy that finds no order being
 * recorded records its own at once, alone, on its own thread. One that finds a write under way hands its order over
 * and waits: one writer thread takes every order waiting (up to {@value #MOST_PER_COMMIT}) and records them in one
 * statement and one durable commit ({@link Orders#insertAllPending}), while the next ones gather behind that commit.
 * Nothing waits for a timer. Nobody is answered before the commit returned, so the saga's next step (the catalog) is
 * asked only for an order that survives a crash.
 *
 * <p>The same key of the same owner twice in one batch is inserted once; the second is told the key is taken and reads
 * the order that has it, as it would after the first had committed. When a batch fails, each of its orders is recorded
 * alone on its buy's own thread ({@link Orders#insertPending}), so one bad row strands no other; so is an order that
 * finds the backlog ({@value #BACKLOG}) full.
 *
 * <p>Meters: {@code agora.orders.pending.batch} (orders per transaction; its count is the transactions),
 * {@code agora.orders.pending.waiting} and {@code agora.orders.pending.alone} (recorded on the buy's thread, by
 * reason).
 */
@Component
class PendingWriter {

    private static final Logger log = LoggerFactory.getLogger(PendingWriter.class);
    static final String THREAD = "order-pending-writer";
    static final int MOST_PER_COMMIT = 64;
    static final int BACKLOG = 1_000;

    /** The order inserted or empty (key taken); {@code alone} when the buy's thread is to insert it itself. */
    private record Answer(boolean alone, Optional<Order> inserted) {}

    /** The unique key {@code (idempotency_key, owner)}, null owners alike: a second ask of it finds it taken. */
    private record OwnersKey(String idempotencyKey, String owner) {}

    private record Ask(Orders.NewOrder order, CompletableFuture<Answer> answer) {

        void alone() {
            answer.complete(new Answer(true, Optional.empty()));
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
                BACKLOG,
                this::write,
                Ask::alone,
                alone(meters, "backlog-full"),
                meters,
                "agora.orders.pending");
    }

    private static Counter alone(MeterRegistry meters, String reason) {
        return Counter.builder("agora.orders.pending.alone")
                .description("PENDING orders recorded on the buy's own thread")
                .tag("reason", reason)
                .register(meters);
    }

    /**
     * Records a PENDING order unless its owner already used the key, as {@link Orders#insertPending}: the order, or
     * empty when the key is taken (the caller reads the order that has it).
     */
    Optional<Order> insert(String idempotencyKey, String owner, long bookId, int quantity) {
        Ask ask = new Ask(new Orders.NewOrder(idempotencyKey, owner, bookId, quantity), new CompletableFuture<>());
        switch (commits.offer(ask)) {
            case WRITE_NOW -> {
                try {
                    return orders.insertPending(idempotencyKey, owner, bookId, quantity);
                } finally {
                    commits.doneAlone();
                }
            }
            case HANDED_OVER -> {
                Answer answer =
                        ServerTiming.measure(ServerTiming.DB, () -> ask.answer().join());
                if (!answer.alone()) return answer.inserted();
            }
            case WRITE_ALONE -> {}
        }
        return orders.insertPending(idempotencyKey, owner, bookId, quantity);
    }

    private void write(List<Ask> batch) {
        List<Ask> first = new ArrayList<>(batch.size());
        List<Ask> repeats = new ArrayList<>();
        Set<OwnersKey> keys = new HashSet<>();
        for (Ask ask : batch) {
            Orders.NewOrder order = ask.order();
            if (keys.add(new OwnersKey(order.idempotencyKey(), order.owner()))) first.add(ask);
            else repeats.add(ask);
        }
        try {
            List<Optional<Order>> inserted =
                    orders.insertAllPending(first.stream().map(Ask::order).toList());
            for (int i = 0; i < first.size(); i++) {
                first.get(i).answer().complete(new Answer(false, inserted.get(i)));
            }
            repeats.forEach(ask -> ask.answer().complete(new Answer(false, Optional.empty())));
        } catch (RuntimeException | Error failed) {
            log.debug("Recording {} PENDING orders together failed, each is recorded alone", batch.size(), failed);
            batchFailed.increment(batch.size());
        } finally {
            // Whatever the batch did not answer its buy's own thread records (GroupCommit hands it back).
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
