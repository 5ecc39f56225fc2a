package dev.agora.exchange.sequencer;

import dev.agora.exchange.matching.MatchingEngine;
import dev.agora.exchange.matching.MemoryLimits;
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
 * are waiting, applies them to the engine one after another (one total order), and the rows they changed are
 * committed to PostgreSQL in ONE transaction (group commit) before any of their replies is sent.
 *
 * <p>The commit runs on a second thread, the committer, so the sequencer never waits for the database: it
 * copies the changed rows' values ({@link ExchangeStore#snapshot}), hands the batch over, and goes on applying
 * the commands that arrive meanwhile. It hands over the next batch once the committer's previous commit has
 * returned, so while a commit (and its fsync) runs, everything that arrives accumulates into the next batch:
 * one statement and one fsync per round, however many commands. (Handing it over as soon as the committer had
 * taken the previous one made every batch wait a whole commit with its size already fixed: with a fixed
 * number of clients, a third of the requests in flight sat there instead of joining a batch.) The committer
 * commits batches one at a time, in order, and completes a batch's replies only after its commit returned, so
 * a reply never describes state that a crash could lose.
 *
 * <p>When a commit fails, the engine's state is ahead of the database: that batch and every later one get
 * errors and the engine is rebuilt from the database (after retaking the lease), so nothing
 * unacknowledged is kept. When the lease is lost (a batch was fenced off, or the election saw another instance take
 * it), the sequencer stands by: every command waiting is refused, the {@linkplain #whenInactive inactive listeners}
 * run (the XML port closes), and it waits for the lease again like any standby.
 *
 * <p>Everything waiting is bounded: the queue holds at most {@code queueCapacity} commands (more are refused at once,
 * and counted), and while the committer has a full batch waiting behind the one it commits, the sequencer takes no
 * more from the queue, so a slow database backs the load up into the queue instead of into memory.
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

    private static final class Submission<R> {
        final Command<R> command;
        final CompletableFuture<R> reply;
        R result;

        Submission(Command<R> command, CompletableFuture<R> reply) {
            this.command = command;
            this.reply = reply;
        }

        void apply(MatchingEngine engine) {
            result = command.applyTo(engine);
        }

        void complete() {
            reply.complete(result);
        }
    }

    /** Put in the queue by the committer when it took the batches handed to it: the sequencer may hand over again. */
    private static final Submission<Object> WAKE = new Submission<>(engine -> null, new CompletableFuture<>());

    /** A batch waiting for its commit; {@code rows} is null when it changed nothing. */
    private record Written(
            List<Submission<?>> commands, ExchangeStore.Snapshot rows, long applyNanos, long handedOver) {}

    private final ExchangeStore store;
    private final LongSupplier epochSeconds;
    private final BlockingQueue<Submission<?>> queue;
    private final int maxBatch;
    private final List<Runnable> activationListeners = new CopyOnWriteArrayList<>();
    private final List<Runnable> deactivationListeners = new CopyOnWriteArrayList<>();
    /** Batches handed to the committer that it has not started, beyond which the sequencer stops taking commands. */
    private static final int MAX_WAITING_BATCHES = 1;

    private final MemoryLimits memoryLimits;
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicLong commands = new AtomicLong();
    private final AtomicLong batches = new AtomicLong();
    private final Committer committer = new Committer();
    /** Applied, not yet written: sequencer thread only. */
    private List<Submission<?>> accumulated = new ArrayList<>();

    private long accumulatedApplyNanos;
    private volatile BatchObserver observer = (commands, applyNanos, commitNanos) -> {};
    private volatile Role role = Role.STARTING;
    private volatile boolean running = true;
    /** Set by the election's thread when the lease was lost; the sequencer thread stands by when it sees it. */
    private volatile boolean leadershipLost;
    /** Written by the sequencer thread only; volatile so gauges may read its sizes. */
    private volatile MatchingEngine engine;

    private Thread thread;

    public Sequencer(ExchangeStore store, LongSupplier epochSeconds, int queueCapacity, int maxBatch) {
        this(store, epochSeconds, queueCapacity, maxBatch, MemoryLimits.DEFAULT);
    }

    public Sequencer(
            ExchangeStore store,
            LongSupplier epochSeconds,
            int queueCapacity,
            int maxBatch,
            MemoryLimits memoryLimits) {
        this.memoryLimits = memoryLimits;
        this.store = store;
        this.epochSeconds = epochSeconds;
        this.queue = new ArrayBlockingQueue<>(queueCapacity);
        this.maxBatch = maxBatch;
        store.whenLeadershipLost(() -> {
            leadershipLost = true;
            queue.offer(WAKE);
        });
    }

    /**
     * Runs {@code listener} on the sequencer thread each time this instance becomes active (lock taken, state
     * loaded), e.g. to open the network listener only then.
     */
    public void whenActive(Runnable listener) {
        activationListeners.add(listener);
    }

    /**
     * Runs {@code listener} on the sequencer thread each time this instance stops being active because it no longer
     * holds the lease (before it waits for the lease again), e.g. to close the network listener.
     */
    public void whenInactive(Runnable listener) {
        deactivationListeners.add(listener);
    }

    public synchronized void start() {
        if (thread != null) return;
        thread = Thread.ofPlatform().name("exchange-sequencer").start(this::run);
        committer.thread = Thread.ofPlatform().name("exchange-committer").start(committer::run);
    }

    /**
     * Queues a command. The future completes with its result once the effects are committed, or fails with
     * {@link ExchangeUnavailableException} when this instance is not active, overloaded, or the commit failed.
     */
    public <R> CompletableFuture<R> submit(Command<R> command) {
        if (role != Role.ACTIVE || !store.leads()) {
            return CompletableFuture.failedFuture(ExchangeUnavailableException.refused("exchange is not active"));
        }
        CompletableFuture<R> reply = new CompletableFuture<>();
        if (!queue.offer(new Submission<>(command, reply))) {
            rejected.incrementAndGet();
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

    /** Most commands that may wait for the sequencer. */
    public int queueCapacity() {
        return queue.size() + queue.remainingCapacity();
    }

    /** Commands refused because the queue was full. */
    public long rejected() {
        return rejected.get();
    }

    /** Batches applied and handed to the committer, not yet durable (the one being committed included). */
    public int batchesAwaitingCommit() {
        return committer.awaiting();
    }

    /** Open orders and recently closed orders the engine holds (sequencer's view; read without a lock). */
    public long ordersHeld() {
        MatchingEngine current = engine;
        return current == null ? 0 : (long) current.openOrderCount() + current.closedOrdersHeld();
    }

    /** Closed orders the accounts keep as their latest ones (sequencer's view; read without a lock). */
    public long closedOrdersKeptByAccounts() {
        MatchingEngine current = engine;
        return current == null ? 0 : current.closedOrdersKeptByAccounts();
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
        ChangeSet changes = new ChangeSet();
        try {
            if (!becomeActive(changes)) return;
            while (running) {
                if (leadershipLost) {
                    failAccumulated("exchange is not active");
                    recover(changes, "the lease was lost");
                    continue;
                }
                if (committer.broken) {
                    failAccumulated("exchange failed, retry");
                    recover(changes, "a commit failed");
                    continue;
                }
                if (accumulated.size() >= maxBatch && committer.waiting() >= MAX_WAITING_BATCHES) {
                    // A full batch waits behind the commit in progress: take nothing more until the database catches
                    // up, so commands back up in the bounded queue, not here.
                    committer.awaitWaitingBelow(MAX_WAITING_BATCHES, 100);
                    continue;
                }
                Submission<?> first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first != null) {
                    batch.add(first);
                    queue.drainTo(batch, Math.max(0, maxBatch - accumulated.size() - 1));
                    if (committer.broken) {
                        // Apply these to the rebuilt engine, not to the one the database is behind of.
                        failAccumulated("exchange failed, retry");
                        recover(changes, "a commit failed");
                    }
                    boolean ok = apply(batch, changes);
                    batch.clear();
                    if (!ok) continue;
                }
                // Hand over only when the committer is free: while it commits, commands keep accumulating, so one
                // statement carries all that came meanwhile.
                if (!accumulated.isEmpty()
                        && (!committer.busy()
                                || (accumulated.size() >= maxBatch && committer.waiting() < MAX_WAITING_BATCHES))) {
                    write(changes);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            role = Role.STOPPED;
            failAccumulated("exchange is shutting down");
            failWaiting("exchange is shutting down");
            try {
                committer.awaitIdle();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            committer.stop();
            store.close();
        }
    }

    /** Applies commands to the engine; their changes accumulate until {@link #write}. */
    private boolean apply(List<Submission<?>> batch, ChangeSet changes) throws InterruptedException {
        long started = System.nanoTime();
        try {
            for (Submission<?> submission : batch) {
                // A caller that gave up waiting gets no effect: better than an effect nobody saw.
                if (submission == WAKE || submission.reply.isDone()) continue;
                submission.apply(engine);
                accumulated.add(submission);
            }
        } catch (RuntimeException e) {
            log.error("Applying a batch of {} commands failed; rebuilding the exchange state", batch.size(), e);
            for (Submission<?> submission : batch) {
                submission.reply.completeExceptionally(new ExchangeUnavailableException("exchange failed, retry"));
            }
            failAccumulated("exchange failed, retry");
            recover(changes, "a batch could not be applied");
            return false;
        }
        accumulatedApplyNanos += System.nanoTime() - started;
        return true;
    }

    /** Copies the accumulated changes and hands them, with their commands, to the committer. */
    private void write(ChangeSet changes) {
        long handedOver = System.nanoTime();
        ExchangeStore.Snapshot rows = changes.isEmpty() ? null : ExchangeStore.snapshot(changes);
        committer.add(new Written(accumulated, rows, accumulatedApplyNanos, handedOver));
        accumulated = new ArrayList<>();
        accumulatedApplyNanos = 0;
        changes.clear();
    }

    /**
     * Fails the commands applied since the last hand-over. They were never handed to a commit, and every caller
     * rebuilds the engine from the database (or stops) next, so none of them can ever become durable.
     */
    private void failAccumulated(String why) {
        for (Submission<?> submission : accumulated) {
            submission.reply.completeExceptionally(ExchangeUnavailableException.refused(why));
        }
        accumulated = new ArrayList<>();
        accumulatedApplyNanos = 0;
    }

    /** Lets the committer finish (or fail) what it was handed, then reacquires the lock and reloads the state. */
    private void recover(ChangeSet changes, String why) throws InterruptedException {
        log.warn("Rebuilding the exchange state from the database: {}", why);
        role = Role.RECOVERING;
        committer.awaitIdle();
        store.release();
        changes.clear();
        committer.broken = false;
        becomeActive(changes);
    }

    /** Takes the lease (waiting as a standby while another instance has it) and loads the state. */
    private boolean becomeActive(ChangeSet changes) throws InterruptedException {
        leadershipLost = false;
        if (role == Role.STARTING || !store.leads()) {
            boolean wasActive = role != Role.STARTING;
            role = Role.STANDBY;
            if (wasActive) {
                // Commands still queued came for the leadership that just ended: refused now, with nothing applied,
                // rather than applied whenever this instance leads again (their callers may be long gone).
                failWaiting("exchange is not active");
                deactivationListeners.forEach(Runnable::run);
            }
        } else {
            role = Role.RECOVERING;
        }
        long backoff = 100;
        while (running) {
            try {
                if (!store.acquireLeadership(() -> running)) return false;
                engine = store.load(epochSeconds, memoryLimits);
                engine.reportChangesTo(changes);
                // A command that slipped into the queue as the last leadership ended belongs to it, not to this one.
                failWaiting("exchange is not active");
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
            submission.reply.completeExceptionally(ExchangeUnavailableException.refused(why));
        }
    }

    /**
     * Commits handed-over batches one at a time, in order, and completes each batch's replies once its commit
     * returned. After a failed commit it fails every batch it still gets until the sequencer has recovered.
     */
    private final class Committer {
        private final Object lock = new Object();
        private final ArrayList<Written> pending = new ArrayList<>();
        private boolean committing;
        private boolean stopped;
        volatile boolean broken;
        Thread thread;

        void add(Written written) {
            synchronized (lock) {
                pending.add(written);
                lock.notifyAll();
            }
        }

        /** Batches handed over and not started. */
        int waiting() {
            synchronized (lock) {
                return pending.size();
            }
        }

        /** Batches handed over and not yet durable. */
        int awaiting() {
            synchronized (lock) {
                return pending.size() + (committing ? 1 : 0);
            }
        }

        void awaitWaitingBelow(int batches, long millis) throws InterruptedException {
            synchronized (lock) {
                if (!stopped && pending.size() >= batches) lock.wait(millis);
            }
        }

        /** Committing, or holding a batch it has not started: a batch handed over now would wait. */
        boolean busy() {
            synchronized (lock) {
                return committing || !pending.isEmpty();
            }
        }

        void awaitIdle() throws InterruptedException {
            synchronized (lock) {
                while (!stopped && (committing || !pending.isEmpty())) lock.wait(100);
            }
        }

        void stop() {
            synchronized (lock) {
                stopped = true;
                lock.notifyAll();
            }
            Thread worker = thread;
            if (worker != null && worker != Thread.currentThread()) {
                try {
                    worker.join(Duration.ofSeconds(10));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        /**
         * The database is free again: the sequencer may hand over what accumulated while this round committed,
         * and it copies those rows while this thread still writes the round's replies.
         */
        private void free() {
            synchronized (lock) {
                committing = false;
                lock.notifyAll();
            }
            queue.offer(WAKE);
        }

        void run() {
            List<Written> round = new ArrayList<>();
            while (true) {
                synchronized (lock) {
                    committing = false;
                    lock.notifyAll();
                    while (pending.isEmpty() && !stopped) {
                        try {
                            lock.wait();
                        } catch (InterruptedException e) {
                            stopped = true;
                        }
                    }
                    if (pending.isEmpty()) {
                        return;
                    }
                    round.addAll(pending);
                    pending.clear();
                    committing = true;
                    // A sequencer holding back a full batch may hand it over now.
                    lock.notifyAll();
                }
                commitAndComplete(round);
                round.clear();
            }
        }

        private void commitAndComplete(List<Written> round) {
            for (int i = 0; i < round.size(); i++) {
                Written written = round.get(i);
                long started = System.nanoTime();
                try {
                    if (broken) throw new IllegalStateException("an earlier commit failed");
                    if (written.rows() != null) {
                        store.commit(written.rows());
                    } else if (!store.leads()) {
                        // Nothing to write, so no fence: an instance that may have lost its lease (thawed after a
                        // freeze) must not answer from a state its successor may have changed.
                        for (Submission<?> submission : written.commands()) {
                            submission.reply.completeExceptionally(
                                    ExchangeUnavailableException.refused("exchange is not active"));
                        }
                        if (i == round.size() - 1) free();
                        continue;
                    }
                    if (i == round.size() - 1) free();
                } catch (RuntimeException e) {
                    if (!broken) {
                        log.error("Commit failed; the exchange state will be rebuilt from the database", e);
                        // Refuse new commands at once; the sequencer rebuilds as soon as it wakes.
                        role = Role.RECOVERING;
                        broken = true;
                        queue.offer(WAKE);
                    }
                    for (Submission<?> submission : written.commands()) {
                        submission.reply.completeExceptionally(
                                new ExchangeUnavailableException("exchange failed, retry"));
                    }
                    continue;
                }
                long durable = System.nanoTime();
                for (Submission<?> submission : written.commands()) submission.complete();
                commands.addAndGet(written.commands().size());
                batches.incrementAndGet();
                observer.batchCommitted(
                        written.commands().size(),
                        written.applyNanos(),
                        written.rows() != null ? durable - started : 0);
            }
        }
    }

    /** Stops taking commands, finishes the batch in progress and gives the lease up. */
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
