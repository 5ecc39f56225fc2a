package dev.agora.perf.jmh;

import dev.agora.frontend.book.BookCache;
import dev.agora.frontend.book.BookSummary;
import dev.agora.frontend.book.CacheSettings;
import dev.agora.frontend.book.Catalog;
import dev.agora.frontend.book.CatalogBook;
import dev.agora.frontend.book.FindingBooks;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/**
 * The frontend's lookup path without HTTP: {@link FindingBooks} over the versioned Caffeine
 * {@link BookCache}, with an in-memory catalog answering at once, so only the cache's own cost is measured.
 * A hit is what most lookups cost the frontend; a miss adds the versioned store (Caffeine compute with the
 * stale check); an invalidation is what every catalog push costs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CacheLookupBenchmark {

    private static final int BOOKS = 1_024;

    private BookCache cache;
    private FindingBooks finding;
    private CatalogBook[] books;

    @State(Scope.Thread)
    public static class Cursor {
        int next;
        long version = 2;

        long nextId() {
            next = (next + 1) & (BOOKS - 1);
            return next + 1;
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        books = new CatalogBook[BOOKS + 1];
        for (int id = 1; id <= BOOKS; id++) {
            books[id] = new CatalogBook(id, "Title " + id, "topic " + id % 8, new BigDecimal("19.99"), 1_000, 1);
        }
        cache = new BookCache(CacheSettings.defaults());
        finding = new FindingBooks(cache, new Catalog() {
            @Override
            public Optional<CatalogBook> find(long id) {
                return Optional.of(books[(int) id]);
            }

            @Override
            public List<BookSummary> search(String topic) {
                return List.of(new BookSummary(1, "Title 1"));
            }
        });
        for (int id = 1; id <= BOOKS; id++) finding.lookup(id);
    }

    @Benchmark
    public FindingBooks.Lookup lookupHit(Cursor cursor) {
        return finding.lookup(cursor.nextId());
    }

    @Benchmark
    @Threads(2)
    public FindingBooks.Lookup lookupHitTwoThreads(Cursor cursor) {
        return finding.lookup(cursor.nextId());
    }

    /** Evict, then look up: the miss path including the versioned store. */
    @Benchmark
    public FindingBooks.Lookup lookupMissAndStore(Cursor cursor) {
        long id = cursor.nextId();
        cache.evictAfterOwnWrite(id);
        return finding.lookup(id);
    }

    /** A pushed invalidation of a cached book's current version (keeps the entry): the push's cost. */
    @Benchmark
    public BookCache invalidate(Cursor cursor) {
        cache.invalidate(cursor.nextId(), 1, false);
        return cache;
    }
}
