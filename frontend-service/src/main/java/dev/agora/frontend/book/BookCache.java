package dev.agora.frontend.book;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Lookups and searches cached in Caffeine, kept fresh by invalidations the catalog pushes after every
 * committed change.
 *
 * <p>The hard part is the race of a slow read with a write: a lookup fetches version 5, a write commits
 * version 6 and its invalidation arrives, then the lookup's answer comes back. Storing it would serve
 * version 5 until the TTL. So the cache remembers, per book, the highest version an invalidation
 * announced, and refuses to store an answer older than that; an answer of that version or newer is the
 * write's own result or later and may be stored. Searches carry no version, so every search-affecting
 * invalidation bumps a generation, and a search fetched under an older generation is not stored.
 *
 * <p>The decision to store is made inside Caffeine's per-key {@code compute}, so it is atomic with
 * respect to the invalidation's removal of the same key.
 *
 * <p>Nothing is served or stored unless the {@link CatalogLeases} hold: a frontend whose catalogs stopped hearing
 * from it may have missed invalidations, and the catalogs answer writes without it once its leases ran out. Each
 * time it may have missed some (a lease ran out, a catalog connected or left) the cache empties itself before its
 * next use, and every answer fetched before is refused.
 */
public final class BookCache implements MeterBinder {

    private final boolean enabled;
    private final CacheSettings settings;
    private final CatalogLeases leases;
    /** What is cached per book beside the book, invalidated and emptied with it. */
    private final List<BookSideCache<?>> sides = new CopyOnWriteArrayList<>();
    /** Told of changes of single files, and of every emptying. */
    private final List<FileChanges> fileListeners = new CopyOnWriteArrayList<>();
    /** The leases' change count this cache was last emptied for. */
    private volatile long leaseChangesSeen;

    private final Cache<Long, CatalogBook> lookups;
    private final Cache<String, List<BookSummary>> searches;
    /** Highest version announced per book id. One entry per book ever changed: bounded by the catalog. */
    private final ConcurrentMap<Long, Long> announcedVersions = new ConcurrentHashMap<>();
    /** Bumped when the whole cache is emptied: answers fetched before cannot be trusted. */
    private final AtomicLong lookupGeneration = new AtomicLong();
    /** Bumped by every search-affecting invalidation and every emptying. */
    private final AtomicLong searchGeneration = new AtomicLong();

    private final LongAdder invalidations = new LongAdder();
    private final LongAdder staleLookupsRefused = new LongAdder();
    private final LongAdder staleSearchesRefused = new LongAdder();
    private final LongAdder clears = new LongAdder();

    /** A cache that needs no catalog's lease (unit tests, benchmarks). */
    public BookCache(CacheSettings settings) {
        this(settings, CatalogLeases.always());
    }

    public BookCache(CacheSettings settings, CatalogLeases leases) {
        this.enabled = settings.enabled();
        this.settings = settings;
        this.leases = leases;
        this.leaseChangesSeen = leases.changes();
        this.lookups = Caffeine.newBuilder()
                .maximumSize(settings.maxLookups())
                .expireAfterWrite(settings.ttl())
                .recordStats()
                .build();
        this.searches = Caffeine.newBuilder()
                .maximumSize(settings.maxSearches())
                .expireAfterWrite(settings.ttl())
                .recordStats()
                .build();
    }

    public boolean enabled() {
        return enabled;
    }

    /**
     * A cache of something else read per book (a book's files), kept beside this one: every invalidation of a book
     * drops the book's entry there too, and it is emptied and leased with this cache.
     *
     * @param name its name in the cache metrics ({@code cache=...})
     */
    public <V> BookSideCache<V> side(String name) {
        BookSideCache<V> side = new BookSideCache<>(name, this, settings);
        sides.add(side);
        return side;
    }

    /** The cached book, or {@code null}. */
    public CatalogBook cachedLookup(long bookId) {
        return enabled && leased() ? lookups.getIfPresent(bookId) : null;
    }

    /**
     * Whether the catalogs' leases hold, after emptying the cache if they changed since it was last used: what it
     * held then may be stale.
     */
    public boolean leased() {
        boolean holds = leases.trusted();
        long changes = leases.changes();
        if (changes != leaseChangesSeen) {
            synchronized (this) {
                if (changes != leaseChangesSeen) {
                    clear();
                    leaseChangesSeen = changes;
                }
            }
        }
        return holds;
    }

    /** To be taken before fetching a book, and handed to {@link #offerLookup}. */
    public long lookupTicket() {
        // A change of the leases not yet acted on empties the cache now, so the ticket is taken after it: an answer
        // fetched from here on is not refused for a change that came before it.
        leased();
        return lookupGeneration.get();
    }

    /**
     * Stores a fetched book unless an invalidation or emptying since {@code ticket} makes it stale.
     * Returns whether it was stored.
     */
    public boolean offerLookup(CatalogBook book, long ticket) {
        if (!enabled || !leased()) return false;
        CatalogBook kept = lookups.asMap().compute(book.id(), (id, cached) -> {
            if (lookupGeneration.get() != ticket || book.version() < announcedVersion(id)) return cached;
            return cached != null && cached.version() >= book.version() ? cached : book;
        });
        boolean stored = kept == book;
        if (!stored && (lookupGeneration.get() != ticket || book.version() < announcedVersion(book.id()))) {
            staleLookupsRefused.increment();
        }
        return stored;
    }

    /** The cached search hits of a topic, or {@code null}. */
    public List<BookSummary> cachedSearch(String topic) {
        return enabled && leased() ? searches.getIfPresent(topic) : null;
    }

    /** To be taken before running a search, and handed to {@link #offerSearch}. */
    public long searchTicket() {
        leased();
        return searchGeneration.get();
    }

    /** Stores search hits unless a search-affecting invalidation came since {@code ticket}. */
    public boolean offerSearch(String topic, List<BookSummary> hits, long ticket) {
        if (!enabled || !leased()) return false;
        List<BookSummary> kept =
                searches.asMap().compute(topic, (key, cached) -> searchGeneration.get() == ticket ? hits : cached);
        boolean stored = kept == hits;
        if (!stored) staleSearchesRefused.increment();
        return stored;
    }

    /**
     * A committed change of a book, announced by the catalog with the book's new version. Drops every
     * cached copy older than that version. Search results only list id and title per topic, so only
     * changes that say so ({@code searchAffected}) drop searches; a changed topic may touch a topic the
     * announcement does not name, so all searches go (such changes are rare admin actions).
     */
    public void invalidate(long bookId, long version, boolean searchAffected) {
        invalidations.increment();
        announcedVersions.merge(bookId, version, Math::max);
        // compute, not computeIfPresent: Caffeine's computeIfPresent returns at once, without the key's lock, when
        // the key is absent, so it can miss a concurrent offerLookup that is inserting a copy it checked against
        // the announced version before the merge above. compute waits for that insert and then drops the copy.
        lookups.asMap().compute(bookId, (id, cached) -> cached == null || cached.version() >= version ? cached : null);
        for (BookSideCache<?> side : sides) side.invalidate(bookId);
        if (searchAffected) {
            searchGeneration.incrementAndGet();
            searches.invalidateAll();
        }
    }

    /**
     * What is kept per file name (the bytes of small files): told of each registration of a name, and of each
     * emptying of this cache, which may have lost announcements.
     */
    public interface FileChanges {

        /** The book's file {@code name} was given new content, which the name holds from {@code revision} on. */
        void fileChanged(long bookId, String name, long revision);

        /** Everything was emptied: announcements may have been missed since the last one received. */
        void cleared();
    }

    /** Tells {@code listener} of every file change and every emptying from now on. */
    public void listen(FileChanges listener) {
        fileListeners.add(listener);
    }

    /**
     * A committed registration of one of a book's files, announced with the name's new revision. The book itself is
     * as it was (lookups stay); what is kept beside it (its list of files) goes, and the file listeners are told.
     */
    public void fileChanged(long bookId, String name, long revision) {
        invalidations.increment();
        for (BookSideCache<?> side : sides) side.invalidate(bookId);
        for (FileChanges listener : fileListeners) listener.fileChanged(bookId, name, revision);
    }

    /**
     * Drops a book this frontend just wrote through (a buy), without knowing its new version, and refuses
     * every lookup fetched before: such a fetch may have read the book before the write committed. Lookups
     * started after this read the committed write.
     */
    public void evictAfterOwnWrite(long bookId) {
        lookupGeneration.incrementAndGet();
        lookups.invalidate(bookId);
    }

    /** Empties the cache and refuses every answer fetched before (a lease ran out, a catalog came or went). */
    public void clear() {
        clears.increment();
        lookupGeneration.incrementAndGet();
        searchGeneration.incrementAndGet();
        lookups.invalidateAll();
        searches.invalidateAll();
        for (BookSideCache<?> side : sides) side.clear();
        for (FileChanges listener : fileListeners) listener.cleared();
    }

    private long announcedVersion(long bookId) {
        Long version = announcedVersions.get(bookId);
        return version == null ? 0 : version;
    }

    /**
     * The cache's bound ({@code CacheSettings}) beside Caffeine's {@code cache_size}; what the bound pushed out is
     * Caffeine's {@code cache_evictions_total}.
     */
    static void capacity(MeterRegistry registry, Cache<?, ?> cache, String name) {
        Gauge.builder("agora.cache.capacity", cache, c -> c.policy()
                        .eviction()
                        .map(eviction -> (double) eviction.getMaximum())
                        .orElse(Double.NaN))
                .description("Entries the cache holds at most; beyond, the least used are evicted")
                .tag("cache", name)
                .register(registry);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        CaffeineCacheMetrics.monitor(registry, lookups, "books.lookup");
        CaffeineCacheMetrics.monitor(registry, searches, "books.search");
        capacity(registry, lookups, "books.lookup");
        capacity(registry, searches, "books.search");
        FunctionCounter.builder("agora.cache.invalidations", invalidations, LongAdder::sum)
                .description("Invalidations received from the catalog")
                .register(registry);
        FunctionCounter.builder("agora.cache.stale.puts.refused", staleLookupsRefused, LongAdder::sum)
                .description("Fetched answers not stored because an invalidation raced with them")
                .tag("cache", "books.lookup")
                .register(registry);
        FunctionCounter.builder("agora.cache.stale.puts.refused", staleSearchesRefused, LongAdder::sum)
                .tag("cache", "books.search")
                .register(registry);
        FunctionCounter.builder("agora.cache.clears", clears, LongAdder::sum)
                .description("Times the whole cache was emptied (a catalog's lease ran out, a catalog came or went)")
                .register(registry);
    }
}
