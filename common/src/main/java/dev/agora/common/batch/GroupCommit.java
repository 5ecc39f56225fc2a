package dev.agora.common.batch;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group commit, the way the exchange batches its journal. A caller that finds fewer than {@code ownWrites} writes
 * under way (callers' own and the writer's) writes its item alone, at once, on its own thread (a lone buy pays no
 * hand-off, and its statements stay in its request's trace). A caller that finds more hands its item over and waits
 * for its answer: one writer thread takes every item waiting (up to {@code mostPerCommit}) and writes them together,
 * while the next ones gather behind that write. Nothing waits for a timer or for company.
 *
 * <p>Why {@code ownWrites} is 2 for the services' writers and not 1: while a caller's own write runs, the writer thread
 * is idle, so an item handed over then is taken at once and written alone beside that write, the commit it would have
 * cost on its caller's thread plus two hand-offs between threads. Written by its caller instead it costs what it would
 * without batching (and PostgreSQL's WAL flush can serve two commits that meet). The next item starts the writer, and
 * what arrives during that write shares the one after: hand-offs begin where commits start to be shared.
 *
 * <p>The write answers the items it decided. Every item it leaves unanswered (it failed, or gave some up) and every
 * item still waiting when the writer stops goes to {@code handBack}, and its caller writes it alone on its own thread,
 * so neither a failed batch nor one bad item strands the others. When the backlog is full (counted in {@code
 * backlogFull}) or the writer has stopped, the caller writes its item alone too, at the database's pace. Answering an
 * item twice must be harmless (a {@code CompletableFuture} keeps its first answer).
 *
 * <p>Why not a library: LMAX Disruptor batches the same way (its handlers' end-of-batch flag), but a ring of
 * preallocated events and its wait strategies buy nothing for callers that block on a database commit anyway, and
 * this is the whole of what its users (the services' writers and the order service's reservation sender) share.
 */
public final class GroupCommit<T> implements AutoCloseable {

    /** What the caller does with the item it offered ({@link #offer}; {@link #write} does it for the caller). */
    enum Turn {
        /** Few enough writes are under way: write it alone now, on this thread, then call {@link #doneAlone()}. */
        WRITE_NOW,
        /** The writer has it: wait for its answer (which may be to write it alone after all). */
        HANDED_OVER,
        /** The backlog is full or the writer stopped: write it alone, and call nothing. */
        WRITE_ALONE
    }

    private static final Logger log = LoggerFactory.getLogger(GroupCommit.class);

    private final String name;
    private final int mostPerCommit;
    private final int ownWrites;
    private final Consumer<List<T>> write;
    private final Consumer<T> handBack;
    private final Counter backlogFull;
    private final ArrayBlockingQueue<T> waiting;
    /** Writes under way: callers' own ({@link Turn#WRITE_NOW}) and the writer's batch. */
    private final AtomicInteger writing = new AtomicInteger();

    private final Thread writer;
    private volatile boolean stopping;
    private volatile boolean stopped;

    /** Starts the writer thread, named {@code threadName}, and registers the gauges of its backlog. */
    public GroupCommit(
            String threadName,
            int mostPerCommit,
            int ownWrites,
            int backlog,
            Consumer<List<T>> write,
            Consumer<T> handBack,
            Counter backlogFull,
            MeterRegistry meters,
            String meterPrefix) {
        this.name = threadName;
        this.mostPerCommit = mostPerCommit;
        this.ownWrites = ownWrites;
        this.write = write;
        this.handBack = handBack;
        this.backlogFull = backlogFull;
        this.waiting = new ArrayBlockingQueue<>(backlog);
        Gauge.builder(meterPrefix + ".waiting", waiting, ArrayBlockingQueue::size)
                .description("Handed to the " + threadName + " thread and not yet taken into a transaction")
                .register(meters);
        Gauge.builder(meterPrefix + ".waiting.capacity", () -> backlog)
                .description("Most that may wait for the " + threadName + " thread; past it each is written alone")
                .register(meters);
        this.writer = Thread.ofPlatform().name(threadName).daemon().start(this::run);
    }

    /**
     * Writes {@code item} and returns its answer: {@code alone} on the caller's thread while fewer than {@code
     * ownWrites} writes are under way, else the writer's answer, which {@code awaitAnswer} waits for and gives as null
     * when the writer handed the item back; then, as when the backlog is full or the writer stopped, {@code alone}.
     */
    public <R> R write(T item, Supplier<R> alone, Function<T, R> awaitAnswer) {
        switch (offer(item)) {
            case WRITE_NOW -> {
                try {
                    return alone.get();
                } finally {
                    doneAlone();
                }
            }
            case HANDED_OVER -> {
                R answer = awaitAnswer.apply(item);
                if (answer != null) return answer;
            }
            case WRITE_ALONE -> {}
        }
        return alone.get();
    }

    /** {@link Turn#WRITE_NOW} while fewer than {@code ownWrites} writes are under way, else hands the item over. */
    Turn offer(T item) {
        if (stopped) return Turn.WRITE_ALONE;
        for (int now = writing.get(); now < ownWrites; now = writing.get()) {
            if (writing.compareAndSet(now, now + 1)) return Turn.WRITE_NOW;
        }
        if (!waiting.offer(item)) {
            backlogFull.increment();
            return Turn.WRITE_ALONE;
        }
        // The writer may have drained its backlog for the last time meanwhile; what it drained, it handed back.
        return stopped && waiting.remove(item) ? Turn.WRITE_ALONE : Turn.HANDED_OVER;
    }

    /** Ends a caller's {@link Turn#WRITE_NOW}, whether its write succeeded or not. */
    void doneAlone() {
        writing.decrementAndGet();
    }

    private void run() {
        List<T> batch = new ArrayList<>(mostPerCommit);
        try {
            while (!stopping) {
                T first = waiting.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) continue;
                batch.add(first);
                waiting.drainTo(batch, mostPerCommit - 1);
                writeTogether(batch);
                batch.clear();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            stopped = true;
            batch.forEach(handBack);
            for (T left; (left = waiting.poll()) != null; ) handBack.accept(left);
        }
    }

    private void writeTogether(List<T> batch) {
        writing.incrementAndGet();
        try {
            write.accept(batch);
        } catch (RuntimeException | Error unexpected) {
            log.warn("{}: writing {} together failed, each is written alone", name, batch.size(), unexpected);
        } finally {
            writing.decrementAndGet();
            batch.forEach(handBack);
        }
    }

    /**
     * Stops taking items; the write under way finishes and is answered, anything left is handed back. Call it before
     * the database pool closes (a bean's {@code @PreDestroy}, which runs after the web server finished its requests).
     */
    @Override
    public void close() throws InterruptedException {
        stopping = true;
        writer.join(TimeUnit.SECONDS.toMillis(10));
    }
}
