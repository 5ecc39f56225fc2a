package dev.agora.exchange.sequencer;

import dev.agora.exchange.matching.MatchingEngine;
import dev.agora.exchange.store.ChangeSet;
import dev.agora.exchange.store.ExchangeStore;
import dev.agora.exchange.store.StoreUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single writer. Commands from every connection wait in one queue; the sequencer thread takes all that
 * are waiting (up to a bound), applies them to the engine one after another (one total order), writes the
 * rows they changed in ONE transaction (group commit) and only then completes their replies. So a reply
 * never describes state that a crash could lose, and one fsync is shared by the whole batch.
 *
 * <p>When a commit fails, the engine's state is ahead of the database: the batch's commands get errors and
 * the engine is rebuilt from the database (after reacquiring the lock), so nothing unacknowledged is kept.
 */
public final class Sequencer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Sequencer.class);

    public enum Role {
        STARTING,
        STANDBY,
        ACTIVE,
        RECOVERING,
        STOPPED
    }

    private record Submission<R>(Command<R> command, CompletableFuture<R> reply) {

        void apply(MatchingEngine engine, List<Runnable> completions) {
            R result = command.applyTo(engine);
            completions.add(() -> reply.complete(result));
        }
    }

    private final ExchangeStore store;
    private final LongSupplier epochSeconds;
    private final BlockingQueue<Submission<?>> queue;
    private final int maxBatch;
    private final Duration lockPollInterval;
    private final List<Runnable> activationListeners = new CopyOnWriteArrayList<>();
    private final AtomicLong commands = new AtomicLong();
    private final AtomicLong batches = new AtomicLong();
    private volatile BatchObserver observer = (commands, applyNanos, commitNanos) -> {};
    private volatile Role role = Role.STARTING;
    private volatile boolean running = true;
    private MatchingEngine engine;
    private Thread thread;

    public Sequencer(
            ExchangeStore store,
            LongSupplier epochSeconds,
            int queueCapacity,
            int maxBatch,
            Duration lockPollInterval) {
        this.store = store;
        this.epochSeconds = epochSeconds;
        this.queue = new ArrayBlockingQueue<>(queueCapacity);
        this.maxBatch = maxBatch;
        this.lockPollInterval = lockPollInterval;
    }

    /**
     * Runs {@code listener} on the sequencer thread each time this instance becomes active (lock taken, state
     * loaded), e.g. to open the network listener only then.
     */
    public void whenActive(Runnable listener) {
        activationListeners.add(listener);
    }

    public synchronized void start() {
        if (thread != null) return;
        thread = Thread.ofPlatform().name("exchange-sequencer").start(this::run);
    }

    /**
     * Queues a command. The future completes with its result once the effects are committed, or fails with
     * {@link ExchangeUnavailableException} when this instance is not active, overloaded, or the commit failed.
     */
    public <R> CompletableFuture<R> submit(Command<R> command) {
        if (role != Role.ACTIVE) {
            return CompletableFuture.failedFuture(new ExchangeUnavailableException("exchange is not active"));
        }
        CompletableFuture<R> reply = new CompletableFuture<>();
        if (!queue.offer(new Submission<>(command, reply))) {
            return CompletableFuture.failedFuture(new ExchangeUnavailableException("exchange is overloaded"));
        }
        return reply;
    }

    public void observeBatches(BatchObserver observer) {
        this.observer = observer;
    }

    /** Commands waiting for the sequencer. */
    public int queued() {
        return queue.size();
    }

    public Role role() {
        return role;
    }

    public long commandsApplied() {
        return commands.get();
    }

    public long batchesCommitted() {
        return batches.get();
    }

    private void run() {
        List<Submission<?>> batch = new ArrayList<>(maxBatch);
        List<Runnable> completions = new ArrayList<>(maxBatch);
        ChangeSet changes = new ChangeSet();
        try {
            if (!becomeActive(changes)) return;
            while (running) {
                Submission<?> first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) continue;
                batch.add(first);
                queue.drainTo(batch, maxBatch - 1);
                processBatch(batch, completions, changes);
                batch.clear();
                completions.clear();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            role = Role.STOPPED;
            failWaiting("exchange is shutting down");
            store.release();
        }
    }

    private void processBatch(List<Submission<?>> batch, List<Runnable> completions, ChangeSet changes)
            throws InterruptedException {
        changes.clear();
        long started = System.nanoTime();
        long applied;
        try {
            for (Submission<?> submission : batch) {
                // A caller that gave up waiting gets no effect: better than an effect nobody saw.
                if (submission.reply().isDone()) continue;
                submission.apply(engine, completions);
            }
            applied = System.nanoTime();
            if (!changes.isEmpty()) store.commit(changes);
        } catch (Exception e) {
            log.error("Batch of {} commands failed; rebuilding the exchange state from the database", batch.size(), e);
            for (Submission<?> submission : batch) {
                submission.reply().completeExceptionally(new ExchangeUnavailableException("exchange failed, retry"));
            }
            becomeActive(changes);
            return;
        }
        long committed = System.nanoTime();
        commands.addAndGet(completions.size());
        batches.incrementAndGet();
        for (Runnable completion : completions) completion.run();
        observer.batchCommitted(completions.size(), applied - started, changes.isEmpty() ? 0 : committed - applied);
    }

    /** Takes the lock (waiting as a standby while another instance has it) and loads the state. */
    private boolean becomeActive(ChangeSet changes) throws InterruptedException {
        role = role == Role.STARTING ? Role.STANDBY : Role.RECOVERING;
        long backoff = 100;
        while (running) {
            try {
                if (!store.acquireLeadership(() -> running, lockPollInterval)) return false;
                engine = store.load(epochSeconds);
                engine.reportChangesTo(changes);
                role = Role.ACTIVE;
                activationListeners.forEach(Runnable::run);
                return true;
            } catch (StoreUnavailableException e) {
                log.warn("Database unavailable ({}); retrying in {} ms", e.getMessage(), backoff);
                store.release();
                Thread.sleep(backoff);
                backoff = Math.min(backoff * 2, 2_000);
            }
        }
        return false;
    }

    private void failWaiting(String why) {
        List<Submission<?>> left = new ArrayList<>();
        queue.drainTo(left);
        for (Submission<?> submission : left) {
            submission.reply().completeExceptionally(new ExchangeUnavailableException(why));
        }
    }

    /** Stops taking commands, finishes the batch in progress and releases the lock. */
    @Override
    public void close() {
        running = false;
        Thread worker = thread;
        if (worker == null) return;
        try {
            worker.join(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
