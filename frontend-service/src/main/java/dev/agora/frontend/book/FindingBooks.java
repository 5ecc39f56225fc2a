package dev.agora.frontend.book;

import java.util.List;
import java.util.Optional;

/** Lookup and search, served from the cache when it has the answer and from the catalog otherwise. */
public final class FindingBooks {

    /** A lookup's outcome. */
    public sealed interface Lookup {
        CacheUse cache();

        record Found(CatalogBook book, CacheUse cache) implements Lookup {}

        record Unknown(CacheUse cache) implements Lookup {}
    }

    public record Search(List<BookSummary> hits, CacheUse cache) {}

    private final BookCache cache;
    private final Catalog catalog;

    public FindingBooks(BookCache cache, Catalog catalog) {
        this.cache = cache;
        this.catalog = catalog;
    }

    public Lookup lookup(long bookId) {
        CatalogBook cached = cache.cachedLookup(bookId);
        if (cached != null) return new Lookup.Found(cached, CacheUse.HIT);
        CacheUse use = cache.enabled() ? CacheUse.MISS : CacheUse.OFF;
        long ticket = cache.lookupTicket();
        Optional<CatalogBook> fetched = catalog.find(bookId);
        if (fetched.isEmpty()) return new Lookup.Unknown(use);
        cache.offerLookup(fetched.get(), ticket);
        return new Lookup.Found(fetched.get(), use);
    }

    public Search search(String topic) {
        List<BookSummary> cached = cache.cachedSearch(topic);
        if (cached != null) return new Search(cached, CacheUse.HIT);
        long ticket = cache.searchTicket();
        List<BookSummary> hits = List.copyOf(catalog.search(topic));
        cache.offerSearch(topic, hits, ticket);
        return new Search(hits, cache.enabled() ? CacheUse.MISS : CacheUse.OFF);
    }
}
