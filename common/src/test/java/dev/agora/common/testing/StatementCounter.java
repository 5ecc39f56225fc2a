package dev.agora.common.testing;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.hibernate.SessionEventListener;

/**
 * Counts, per thread, the JDBC round trips Hibernate makes: statements executed (a batch counts once: it is one
 * round trip) and transactions committed. Hibernate makes one per session ({@code hibernate.session.events.auto},
 * set in each service's test support); the counts are shared by all of them.
 */
public class StatementCounter implements SessionEventListener {

    /** Statements and commits made on threads whose names pass a filter. */
    public record Counts(long statements, long commits) {}

    private static final Map<String, AtomicLong> STATEMENTS = new ConcurrentHashMap<>();
    private static final Map<String, AtomicLong> COMMITS = new ConcurrentHashMap<>();

    public static void reset() {
        STATEMENTS.clear();
        COMMITS.clear();
    }

    public static Counts on(Predicate<String> threads) {
        return new Counts(sum(STATEMENTS, threads), sum(COMMITS, threads));
    }

    private static long sum(Map<String, AtomicLong> counts, Predicate<String> threads) {
        return counts.entrySet().stream()
                .filter(entry -> threads.test(entry.getKey()))
                .mapToLong(entry -> entry.getValue().get())
                .sum();
    }

    private static void count(Map<String, AtomicLong> counts) {
        counts.computeIfAbsent(Thread.currentThread().getName(), thread -> new AtomicLong())
                .incrementAndGet();
    }

    @Override
    public void jdbcExecuteStatementEnd() {
        count(STATEMENTS);
    }

    @Override
    public void jdbcExecuteBatchEnd() {
        count(STATEMENTS);
    }

    @Override
    public void transactionCompletion(boolean successful) {
        if (successful) count(COMMITS);
    }
}
