package dev.agora.exchange.history;

import dev.agora.exchange.matching.Result;
import dev.agora.exchange.matching.StoredOrders;
import dev.agora.exchange.matching.StoredResults;
import dev.agora.exchange.sequencer.ExchangeUnavailableException;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Completes the engine's answers about closed orders from PostgreSQL, off the engine's and the network's threads:
 * a fixed number of reader threads behind a bounded queue. When the queue is full the request is answered "exchange
 * is overloaded" (and counted) rather than queued without end. Answers that need nothing stored complete at once, on
 * the caller's thread.
 */
public final class OrderHistory implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(OrderHistory.class);

    private final StoredResults results;
    private final ThreadPoolExecutor readers;
    private final AtomicLong rejected = new AtomicLong();
    private final int queueCapacity;

    /**
     * @param maxExecutions most executions one answer may carry
     * @param threads reader threads (each holds a pooled connection while it reads)
     * @param queueCapacity reads that may wait for a reader
     */
    public OrderHistory(StoredOrders store, int maxExecutions, int threads, int queueCapacity) {
        this.results = new StoredResults(store, maxExecutions);
        this.queueCapacity = queueCapacity;
        this.readers = new ThreadPoolExecutor(
                threads,
                threads,
                0,
                TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(queueCapacity),
                Thread.ofPlatform().name("exchange-history-", 1).daemon().factory());
    }

    /** The results with every stored part read; completes at once when none needs the store. */
    public CompletableFuture<List<Result>> completeAll(List<Result> answers) {
        if (!StoredResults.needStore(answers)) return CompletableFuture.completedFuture(answers);
        return read(answers, results::completeAll);
    }

    public CompletableFuture<Result> complete(Result answer) {
        if (!StoredResults.needsStore(answer)) return CompletableFuture.completedFuture(answer);
        return read(answer, results::complete);
    }

    private <T> CompletableFuture<T> read(T answer, Function<T, T> completion) {
        CompletableFuture<T> done = new CompletableFuture<>();
        try {
            readers.execute(() -> {
                try {
                    done.complete(completion.apply(answer));
                } catch (RuntimeException e) {
                    log.warn("Reading stored orders failed: {}", e.getMessage());
                    done.completeExceptionally(
                            new ExchangeUnavailableException("exchange could not read the order, retry"));
                }
            });
        } catch (RejectedExecutionException e) {
            rejected.incrementAndGet();
            done.completeExceptionally(new ExchangeUnavailableException("exchange is overloaded"));
        }
        return done;
    }

    /** Reads waiting for a reader thread. */
    public int queued() {
        return readers.getQueue().size();
    }

    public int queueCapacity() {
        return queueCapacity;
    }

    /** Reads refused because the queue was full. */
    public long rejected() {
        return rejected.get();
    }

    @Override
    public void close() {
        readers.shutdownNow();
    }
}
