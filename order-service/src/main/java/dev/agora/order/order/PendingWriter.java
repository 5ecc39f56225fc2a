package dev.agora.order.order;

import dev.agora.common.timing.ServerTiming;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PreDestroy;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Group commit of the buys' first step, the PENDING order: a buy's thread hands its order over and waits; one writer
 * thread takes every order waiting (up to {@value #MOST_PER_COMMIT}) and records them in one statement and one
 * durable commit ({@link Orders#insertAllPending}), while the next ones gather behind that commit. A buy that finds
 * the writer idle is recorded at once, alone: nothing waits for a timer. Nobody is answered before the commit
 * returned, so the saga's next step (the catalog) is asked only for an order that survives a crash.
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
    private final ArrayBlockingQueue<Ask> waiting = new ArrayBlockingQueue<>(BACKLOG);
    private final DistributionSummary batches;
    private final Counter backlogFull;
    private final Counter batchFailed;
    private final Thread writer;
    private volatile boolean stopping;
    private volatile boolean stopped;

    PendingWriter(Orders orders, MeterRegistry meters) {
        this.orders = orders;
        this.batches = DistributionSummary.builder("agora.orders.pending.batch")
                .description("PENDING orders recorded together in one transaction (its count: the transactions)")
                .baseUnit("orders")
                .register(meters);
        this.backlogFull = alone(meters, "backlog-full");
        this.batchFailed = alone(meters, "batch-failed");
        Gauge.builder("agora.orders.pending.waiting", waiting, ArrayBlockingQueue::size)
                .description("PENDING orders handed to the writer and not yet taken into a transaction")
                .register(meters);
        Gauge.builder("agora.orders.pending.waiting.capacity", () -> BACKLOG)
                .description("Most PENDING orders that may wait for the writer; past it each is recorded alone")
                .register(meters);
        this.writer = Thread.ofPlatform().name(THREAD).daemon().start(this::run);
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
        Optional<CompletableFuture<Answer>> handedOver =
                submit(new Orders.NewOrder(idempotencyKey, owner, bookId, quantity));
        if (handedOver.isPresent()) {
            Answer answer =
                    ServerTiming.measure(ServerTiming.DB, () -> handedOver.get().join());
            if (!answer.alone()) return answer.inserted();
        }
        return orders.insertPending(idempotencyKey, owner, bookId, quantity);
    }

    private Optional<CompletableFuture<Answer>> submit(Orders.NewOrder order) {
        if (stopped) return Optional.empty();
        Ask ask = new Ask(order, new CompletableFuture<>());
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
                write(batch);
                batch.clear();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            stopped = true;
            batch.forEach(Ask::alone);
            for (Ask left; (left = waiting.poll()) != null; ) left.alone();
        }
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
            batches.record(first.size());
            // Whatever the batch did not answer its buy's own thread records.
            batch.forEach(Ask::alone);
        }
    }

    /**
     * Runs when the context closes, after the web server finished its requests and before the database pool closes:
     * the batch under way commits and is answered; anything left is handed back.
     */
    @PreDestroy
    void stop() throws InterruptedException {
        stopping = true;
        writer.join(TimeUnit.SECONDS.toMillis(10));
    }
}
