package dev.agora.frontend.book;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** The cache is used only under every connected catalog's lease, and empties itself whenever one may have lapsed. */
class CatalogLeasesTest {

    private final CatalogLeases leases = new CatalogLeases();
    private final BookCache cache = new BookCache(CacheSettings.defaults(), leases);

    private static CatalogBook book(long id, long version) {
        return new CatalogBook(id, "Title " + id, "topic", new BigDecimal("10.00"), 100 - version, version);
    }

    @Test
    void withNoCatalogConnectedTheCacheIsNotUsed() {
        assertThat(leases.trusted()).isFalse();
        assertThat(cache.offerLookup(book(1, 1), cache.lookupTicket())).isFalse();
        assertThat(cache.cachedLookup(1)).isNull();
    }

    @Test
    void aConnectedCatalogMustGrantALeaseBeforeTheCacheIsUsed() {
        CatalogLeases.Lease lease = leases.opened("catalog-0");
        assertThat(cache.offerLookup(book(1, 1), cache.lookupTicket())).isFalse();

        lease.granted(lease.ask(), 60_000);

        assertThat(cache.offerLookup(book(1, 1), cache.lookupTicket())).isTrue();
        assertThat(cache.cachedLookup(1)).isNotNull();
    }

    @Test
    void everyConnectedCatalogMustHoldALease() {
        CatalogLeases.Lease first = leases.opened("catalog-0");
        first.granted(first.ask(), 60_000);
        cache.offerLookup(book(1, 1), cache.lookupTicket());
        assertThat(cache.cachedLookup(1)).isNotNull();

        CatalogLeases.Lease second = leases.opened("catalog-1");
        assertThat(cache.cachedLookup(1))
                .as("a new catalog may have announced writes")
                .isNull();
        second.granted(second.ask(), 60_000);

        assertThat(cache.cachedLookup(1)).as("emptied when the catalog came").isNull();
        assertThat(cache.offerLookup(book(1, 1), cache.lookupTicket())).isTrue();
    }

    @Test
    void aLeaseThatRanOutStopsTheCacheAndEmptiesItBeforeItIsUsedAgain() throws InterruptedException {
        CatalogLeases.Lease lease = leases.opened("catalog-0");
        lease.granted(lease.ask(), 60_000);
        long ticket = cache.lookupTicket();
        cache.offerLookup(book(2, 1), cache.lookupTicket());

        long asked = lease.ask();
        lease.granted(asked, 1); // a grant shorter than what is held changes nothing
        assertThat(cache.cachedLookup(2)).isNotNull();
        CatalogLeases.Lease shortLived = leases.opened("catalog-1");
        shortLived.granted(shortLived.ask(), 50);
        Thread.sleep(120);

        assertThat(leases.trusted()).isFalse();
        assertThat(cache.cachedLookup(2)).isNull();
        shortLived.granted(shortLived.ask(), 60_000);
        assertThat(cache.cachedLookup(2)).as("emptied after the lapse").isNull();
        assertThat(cache.offerLookup(book(2, 1), ticket))
                .as("fetched before the lapse")
                .isFalse();
    }

    @Test
    void aCatalogThatLeavesEmptiesTheCache() {
        CatalogLeases.Lease lease = leases.opened("catalog-0");
        lease.granted(lease.ask(), 60_000);
        CatalogLeases.Lease other = leases.opened("catalog-1");
        other.granted(other.ask(), 60_000);
        cache.offerLookup(book(3, 1), cache.lookupTicket());
        assertThat(cache.cachedLookup(3)).isNotNull();

        leases.closed("catalog-1");

        assertThat(leases.trusted()).isTrue();
        assertThat(cache.cachedLookup(3)).isNull();
    }

    @Test
    void aLeaseRunsFromWhenItWasAskedForNotFromTheGrant() throws InterruptedException {
        CatalogLeases.Lease lease = leases.opened("catalog-0");
        long asked = lease.ask();
        Thread.sleep(150); // the grant took long on the way
        lease.granted(asked, 100);

        assertThat(leases.trusted()).as("ran out before it even arrived").isFalse();
    }
}
