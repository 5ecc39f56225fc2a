package dev.agora.frontend.book;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Something read per book beside the book itself (a book's list of files), cached under the {@link BookCache}'s
 * discipline and freshness guarantee: it is used only while the catalogs' leases hold, emptied with the book cache,
 * and a book's entry is dropped by every invalidation the catalog pushes for that book, whatever its version (the
 * catalog announces a change of what is kept here as a change of the book, at the book's current version).
 *
 * <p>The race of a slow read with a write is settled with a ticket, as for searches but per book: every invalidation
 * of a book and every emptying takes a number from one sequence; a read takes the sequence's number before it asks
 * the catalog, and its answer is stored only if neither its book's last invalidation nor the last emptying came
 * after that number. The check runs inside Caffeine's per-key {@code compute}, so it is atomic with respect to the
 * invalidation's removal of the same key.
 *
 * @param <V> what is kept per book (immutable)
 */
public final class BookSideCache<V> implements MeterBinder {

    private final String name;
    private final BookCache books;
    private final Cache<Long, V> entries;
    private final AtomicLong sequence = new AtomicLong();
    /** The sequence number of each book's last invalidation. One entry per book ever changed: bounded by the catalog. */
    private final ConcurrentMap<Long, Long> changedAt = new ConcurrentHashMap<>();

    private volatile long clearedAt;
    private final LongAdder staleRefused = new LongAdder();

    BookSideCache(String name, BookCache books, CacheSettings settings) {
        this.name = name;
        this.books = books;
        this.entries = Caffeine.newBuilder()
                .maximumSize(settings.maxLookups())
                .expireAfterWrite(settings.ttl())
                .recordStats()
                .build();
    }

    /** The cached value of a book, or {@code null}. */
    public V cached(long bookId) {
        return books.enabled() && books.leased() ? entries.getIfPresent(bookId) : null;
    }

    /** To be taken before reading a book's value from the catalog, and handed to {@link #offer}. */
    public long ticket() {
        // A change of the leases not yet acted on empties this cache now, so the ticket is taken after it.
        books.leased();
        return sequence.get();
    }

    /** Stores a value read under {@code ticket} unless the book changed, or the cache was emptied, since. */
    public boolean offer(long bookId, V value, long ticket) {
        if (!books.enabled() || !books.leased()) return false;
        V kept = entries.asMap().compute(bookId, (id, cached) -> fresh(id, ticket) ? value : cached);
        boolean stored = kept == value;
        if (!stored) staleRefused.increment();
        return stored;
    }

    private boolean fresh(long bookId, long ticket) {
        Long changed = changedAt.get(bookId);
        return clearedAt <= ticket && (changed == null || changed <= ticket);
    }

    /** The book changed: its value goes, and every read of it begun before is refused. */
    void invalidate(long bookId) {
        changedAt.put(bookId, sequence.incrementAndGet());
        // compute, not invalidate: it waits for a concurrent offer of the same key that checked before the put.
        entries.asMap().compute(bookId, (id, cached) -> null);
    }

    /** Everything goes, and every read begun before is refused. */
    void clear() {
        clearedAt = sequence.incrementAndGet();
        entries.invalidateAll();
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        CaffeineCacheMetrics.monitor(registry, entries, name);
        BookCache.capacity(registry, entries, name);
        FunctionCounter.builder("agora.cache.stale.puts.refused", staleRefused, LongAdder::sum)
                .description("Fetched answers not stored because an invalidation raced with them")
                .tag("cache", name)
                .register(registry);
    }
}
