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
 * are waiting (up to a bound), applies them to the engine one after another (one total order) and writes the
 * rows they changed in ONE transaction (group commit). That transaction does not wait for its WAL flush: the
 * batch goes to the flusher thread, which makes every batch written so far durable with one flushed commit
 * and only then completes their replies, in batch order. So the sequencer applies and writes batch N+1 while
 * batch N's fsync is under way, a reply never describes state that a crash could lose, and one fsync is
 * shared by every batch written while the previous one ran.
 *
 * <p>When a write or a flush fails, the engine's state may be ahead of the database: the affected commands
 * get errors and the engine is rebuilt from the database (after reacquiring the lock), so nothing
 * unacknowledged is kept in memory. The database holds a prefix of the written batches (the WAL is
 * replayed in order), so nothing is half applied.
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

    /** A written batch waiting for durability. */
    private record Written(List<Submission<?>> commands, boolean wrote, long applyNanos, long writeStarted) {}

    private final ExchangeStore store;
    private final LongSupplier epochSeconds;
    private final BlockingQueue<Submission<?>> queue;
    private final int maxBatch;
    private final Duration lockPollInterval;
    private final List<Runnable> activationListeners = new CopyOnWriteArrayList<>();
    private final AtomicLong commands = new AtomicLong();
    private final AtomicLong batches = new AtomicLong();
    private final Flusher flusher = new Flusher();
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
        flusher.thread = Thread.ofPlatform().name("exchange-flusher").start(flusher::run);
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
        ChangeSet changes = new ChangeSet();
        try {
            if (!becomeActive(changes)) return;
            while (running) {
                if (flusher.broken) {
                    recover(changes, "the WAL flush failed");
                    continue;
                }
                Submission<?> first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) continue;
                batch.add(first);
                queue.drainTo(batch, maxBatch - 1);
                processBatch(batch, changes);
                batch.clear();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            role = Role.STOPPED;
            failWaiting("exchange is shutting down");
            try {
                flusher.awaitIdle();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            flusher.stop();
            store.release();
        }
    }

    private void processBatch(List<Submission<?>> batch, ChangeSet changes) throws InterruptedException {
        changes.clear();
        long started = System.nanoTime();
        List<Submission<?>> applied = new ArrayList<>(batch.size());
        long writeStarted;
        try {
            for (Submission<?> submission : batch) {
                // A caller that gave up waiting gets no effect: better than an effect nobody saw.
                if (submission.reply.isDone()) continue;
                submission.apply(engine);
                applied.add(submission);
            }
            writeStarted = System.nanoTime();
            if (!changes.isEmpty()) store.write(changes);
        } catch (Exception e) {
            log.error("Batch of {} commands failed; rebuilding the exchange state from the database", batch.size(), e);
            for (Submission<?> submission : batch) {
                submission.reply.completeExceptionally(new ExchangeUnavailableException("exchange failed, retry"));
            }
            recover(changes, "a batch could not be written");
            return;
        }
        flusher.add(new Written(applied, !changes.isEmpty(), writeStarted - started, writeStarted));
    }

    /** Lets the flusher finish (or fail) what was written, then reacquires the lock and reloads the state. */
    private void recover(ChangeSet changes, String why) throws InterruptedException {
        log.warn("Rebuilding the exchange state from the database: {}", why);
        role = Role.RECOVERING;
        flusher.awaitIdle();
        store.release();
        flusher.broken = false;
        becomeActive(changes);
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
            submission.reply.completeExceptionally(new ExchangeUnavailableException(why));
        }
    }

    /**
     * Makes written batches durable and completes their replies, in order. Each round takes every batch written
     * since the last one, flushes once (if any of them wrote), and completes them all.
     */
    private final class Flusher {
        private final Object lock = new Object();
        private final ArrayList<Written> pending = new ArrayList<>();
        private boolean flushing;
        private boolean stopped;
        volatile boolean broken;
        Thread thread;

        void add(Written written) {
            synchronized (lock) {
                pending.add(written);
                lock.notifyAll();
            }
        }

        void awaitIdle() throws InterruptedException {
            synchronized (lock) {
                while (!stopped && (flushing || !pending.isEmpty())) lock.wait(100);
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

        void run() {
            List<Written> round = new ArrayList<>();
            while (true) {
                synchronized (lock) {
                    flushing = false;
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
                    flushing = true;
                }
                flushAndComplete(round);
                round.clear();
            }
        }

        private void flushAndComplete(List<Written> round) {
            boolean wrote = false;
            for (Written written : round) wrote |= written.wrote();
            try {
                if (broken) throw new IllegalStateException("an earlier flush failed");
                if (wrote) store.flush();
            } catch (RuntimeException e) {
                if (!broken) log.error("WAL flush failed; the exchange state will be rebuilt", e);
                broken = true;
                for (Written written : round) {
                    for (Submission<?> submission : written.commands()) {
                        submission.reply.completeExceptionally(
                                new ExchangeUnavailableException("exchange failed, retry"));
                    }
                }
                return;
            }
            long durable = System.nanoTime();
            for (Written written : round) {
                for (Submission<?> submission : written.commands()) submission.complete();
                commands.addAndGet(written.commands().size());
                batches.incrementAndGet();
                observer.batchCommitted(
                        written.commands().size(),
                        written.applyNanos(),
                        written.wrote() ? durable - written.writeStarted() : 0);
            }
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
