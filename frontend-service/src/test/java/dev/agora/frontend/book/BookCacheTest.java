package dev.agora.frontend.book;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class BookCacheTest {

    private final BookCache cache = new BookCache(CacheSettings.defaults());

    private static CatalogBook book(long id, long version) {
        return new CatalogBook(id, "Title " + id, "topic", new BigDecimal("10.00"), 100 - version, version);
    }

    @Test
    void aLookupThatRacedWithTheInvalidationOfANewerWriteIsNotStored() {
        long ticket = cache.lookupTicket();
        // The read fetched version 5; meanwhile version 6 was committed and announced.
        cache.invalidate(1, 6, false);

        assertThat(cache.offerLookup(book(1, 5), ticket)).isFalse();
        assertThat(cache.cachedLookup(1)).isNull();
    }

    @Test
    void aLookupOfTheAnnouncedVersionOrNewerIsStored() {
        cache.invalidate(1, 6, false);

        assertThat(cache.offerLookup(book(1, 6), cache.lookupTicket())).isTrue();
        assertThat(cache.cachedLookup(1).version()).isEqualTo(6);
        assertThat(cache.offerLookup(book(1, 7), cache.lookupTicket())).isTrue();
        assertThat(cache.cachedLookup(1).version()).isEqualTo(7);
    }

    @Test
    void anInvalidationDropsOlderCopiesAndKeepsCopiesOfItsOwnVersion() {
        cache.offerLookup(book(1, 3), cache.lookupTicket());
        cache.invalidate(1, 4, false);
        assertThat(cache.cachedLookup(1)).isNull();

        cache.offerLookup(book(1, 4), cache.lookupTicket());
        cache.invalidate(1, 4, false); // a repeated push of the same change
        assertThat(cache.cachedLookup(1).version()).isEqualTo(4);
    }

    @Test
    void aBuyThroughThisFrontendDropsTheBookAndRefusesLookupsFetchedBeforeIt() {
        cache.offerLookup(book(1, 3), cache.lookupTicket());
        long fetchedBeforeTheBuy = cache.lookupTicket();

        // The catalog committed version 4 and did not wait to push it here; the buy's answer arrived.
        cache.evictAfterOwnWrite(1);

        assertThat(cache.cachedLookup(1)).isNull();
        assertThat(cache.offerLookup(book(1, 3), fetchedBeforeTheBuy)).isFalse();
        assertThat(cache.cachedLookup(1)).isNull();
        assertThat(cache.offerLookup(book(1, 4), cache.lookupTicket())).isTrue();
        assertThat(cache.cachedLookup(1).version()).isEqualTo(4);
    }

    @Test
    void anOlderAnswerNeverReplacesANewerCopy() {
        cache.offerLookup(book(1, 8), cache.lookupTicket());
        assertThat(cache.offerLookup(book(1, 7), cache.lookupTicket())).isFalse();
        assertThat(cache.cachedLookup(1).version()).isEqualTo(8);
    }

    @Test
    void anInvalidationOfAnUnknownBookIsHarmless() {
        cache.invalidate(987_654, 1, true);
        assertThat(cache.cachedLookup(987_654)).isNull();
        assertThat(cache.offerLookup(book(987_654, 1), cache.lookupTicket())).isTrue();
    }

    @Test
    void aSearchFetchedBeforeASearchAffectingInvalidationIsNotStored() {
        long ticket = cache.searchTicket();
        cache.invalidate(9, 1, true);

        assertThat(cache.offerSearch("topic", List.of(new BookSummary(1, "old")), ticket))
                .isFalse();
        assertThat(cache.cachedSearch("topic")).isNull();

        assertThat(cache.offerSearch("topic", List.of(new BookSummary(1, "new")), cache.searchTicket()))
                .isTrue();
        assertThat(cache.cachedSearch("topic")).containsExactly(new BookSummary(1, "new"));
    }

    @Test
    void stockChangesLeaveSearchesCached() {
        cache.offerSearch("topic", List.of(new BookSummary(1, "t")), cache.searchTicket());
        cache.invalidate(1, 2, false);
        assertThat(cache.cachedSearch("topic")).isNotNull();
    }

    @Test
    void clearingRefusesEverythingFetchedBefore() {
        long lookupTicket = cache.lookupTicket();
        long searchTicket = cache.searchTicket();
        cache.clear();

        assertThat(cache.offerLookup(book(1, 1), lookupTicket)).isFalse();
        assertThat(cache.offerSearch("topic", List.of(), searchTicket)).isFalse();
    }

    @Test
    void aDisabledCacheStoresNothing() {
        BookCache off = new BookCache(new CacheSettings(false, 10, 10, Duration.ofSeconds(60)));
        off.offerLookup(book(1, 1), off.lookupTicket());
        assertThat(off.cachedLookup(1)).isNull();
    }

    /**
     * Writers commit versions 1..N of one book and announce each; readers fetch "the database" at a random
     * moment and offer what they read, possibly long after. Whatever the interleaving, once the last
     * announcement is in, the cache holds nothing older than the last version.
     */
    @Test
    void underConcurrentReadsAndWritesTheCacheNeverEndsStale() throws Exception {
        for (int round = 0; round < 20; round++) {
            BookCache shared = new BookCache(CacheSettings.defaults());
            AtomicLong database = new AtomicLong(1);
            AtomicBoolean writing = new AtomicBoolean(true);
            int readers = 6;
            CountDownLatch start = new CountDownLatch(1);
            try (ExecutorService threads = Executors.newFixedThreadPool(readers + 1)) {
                List<Future<?>> work = new ArrayList<>();
                for (int r = 0; r < readers; r++) {
                    work.add(threads.submit(() -> {
                        start.await();
                        while (writing.get()) {
                            if (shared.cachedLookup(1) != null) continue;
                            long ticket = shared.lookupTicket();
                            long read = database.get();
                            Thread.yield(); // a slow answer on its way back
                            shared.offerLookup(book(1, read), ticket);
                        }
                        return null;
                    }));
                }
                work.add(threads.submit(() -> {
                    start.await();
                    for (int v = 2; v <= 2_000; v++) {
                        database.set(v); // commit
                        shared.invalidate(1, v, false); // then announce, before the write returns
                    }
                    writing.set(false);
                    return null;
                }));
                start.countDown();
                for (Future<?> f : work) f.get();
            }
            CatalogBook cached = shared.cachedLookup(1);
            if (cached != null) assertThat(cached.version()).isEqualTo(2_000);
        }
    }
}
