package dev.agora.frontend.book;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A book's files kept beside the book: dropped by the book's invalidations, emptied and leased with the book cache. */
class BookSideCacheTest {

    private final BookCache books = new BookCache(CacheSettings.defaults());
    private final BookSideCache<List<String>> files = books.side("books.files");

    @Test
    void aListIsServedUntilTheBookIsInvalidatedWhateverTheVersion() {
        assertThat(files.offer(1, List.of("a.pdf"), files.ticket())).isTrue();
        assertThat(files.cached(1)).containsExactly("a.pdf");

        // A file registration is announced at the book's current version, which the book cache may already hold.
        books.offerLookup(new CatalogBook(1, "T", "t", java.math.BigDecimal.ONE, 1, 3), books.lookupTicket());
        books.invalidate(1, 3, false);

        assertThat(files.cached(1)).isNull();
        assertThat(books.cachedLookup(1)).as("the book itself did not change").isNotNull();
    }

    @Test
    void aListReadBeforeTheBooksInvalidationIsNotStored() {
        long ticket = files.ticket();
        // The read asked the catalog; meanwhile a file was registered and announced.
        books.invalidate(1, 1, false);

        assertThat(files.offer(1, List.of(), ticket)).isFalse();
        assertThat(files.cached(1)).isNull();
        assertThat(files.offer(1, List.of("new.pdf"), files.ticket())).isTrue();
    }

    @Test
    void anotherBooksInvalidationDoesNotRefuseTheRead() {
        long ticket = files.ticket();
        books.invalidate(2, 5, false);

        assertThat(files.offer(1, List.of("a.pdf"), ticket)).isTrue();
    }

    @Test
    void emptyingTheBookCacheEmptiesItAndRefusesReadsBegunBefore() {
        files.offer(1, List.of("a.pdf"), files.ticket());
        long ticket = files.ticket();
        books.clear();

        assertThat(files.cached(1)).isNull();
        assertThat(files.offer(2, List.of("b.pdf"), ticket)).isFalse();
    }

    @Test
    void nothingIsServedOrStoredWithoutTheCatalogsLeases() {
        CatalogLeases leases = new CatalogLeases();
        BookSideCache<List<String>> unleased = new BookCache(CacheSettings.defaults(), leases).side("books.files");

        assertThat(unleased.offer(1, List.of("a.pdf"), unleased.ticket())).isFalse();
        assertThat(unleased.cached(1)).isNull();
    }

    @Test
    void aDisabledBookCacheKeepsNothingBesideIt() {
        BookSideCache<List<String>> off =
                new BookCache(new CacheSettings(false, 10, 10, Duration.ofSeconds(60))).side("books.files");

        assertThat(off.offer(1, List.of("a.pdf"), off.ticket())).isFalse();
        assertThat(off.cached(1)).isNull();
    }

    /**
     * Readers race invalidations of one book on many threads: whenever an invalidation has returned, the list it
     * dropped is never served again (each read offers the number of invalidations it saw when it began).
     */
    @Test
    void noListOlderThanTheLastReturnedInvalidationIsEverServed() throws Exception {
        AtomicBoolean stale = new AtomicBoolean();
        AtomicLong committed = new AtomicLong();
        AtomicLong invalidated = new AtomicLong();
        long until = System.nanoTime() + Duration.ofMillis(500).toNanos();
        CountDownLatch go = new CountDownLatch(1);
        try (ExecutorService threads = Executors.newFixedThreadPool(4)) {
            List<Future<?>> running = new java.util.ArrayList<>();
            for (int r = 0; r < 3; r++) {
                running.add(threads.submit(() -> {
                    go.await();
                    while (System.nanoTime() < until) {
                        long seenBefore = invalidated.get();
                        List<String> cached = files.cached(1);
                        if (cached != null && Long.parseLong(cached.getFirst()) < seenBefore) stale.set(true);
                        long ticket = files.ticket();
                        String read = Long.toString(committed.get()); // what the catalog held when it was read
                        files.offer(1, List.of(read), ticket);
                    }
                    return null;
                }));
            }
            running.add(threads.submit(() -> {
                go.await();
                long version = 0;
                while (System.nanoTime() < until) {
                    long next = committed.get() + 1;
                    // The write commits (the catalog now holds "next"), then its invalidation is announced.
                    committed.set(next);
                    books.invalidate(1, ++version, false);
                    invalidated.set(next);
                    Thread.onSpinWait();
                }
                return null;
            }));
            go.countDown();
            for (Future<?> each : running) each.get();
        }
        assertThat(stale)
                .as("a list older than an invalidation that had returned was served")
                .isFalse();
    }
}
