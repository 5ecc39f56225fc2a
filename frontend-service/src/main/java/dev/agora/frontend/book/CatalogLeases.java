package dev.agora.frontend.book;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether this frontend may serve and keep cached books: only while every catalog replica connected to it has
 * granted it a lease that has not run out. A catalog answers a write only after every frontend acknowledged its
 * invalidation, or after it stopped granting that frontend leases and the last one ran out; so a frontend that was
 * frozen, cut off or too slow to acknowledge has stopped using its cache by the time the write is answered, and it
 * empties the cache before it uses it again ({@link #changes()}).
 *
 * <p>A lease is asked for by the frontend and runs from when it asked, on the frontend's own clock; the catalog
 * counts it from when it granted it, which is later. So the frontend's lease always ends first, however long the
 * request or the grant took on the way. With no catalog connected nothing could invalidate the cache, so it is not
 * used either.
 */
public class CatalogLeases {

    /** The lease of one catalog's session. */
    final class Lease {
        /** System.nanoTime() until which it holds; not granted yet: now. */
        private volatile long untilNanos = System.nanoTime();

        private volatile boolean lapsed = true;

        /** Renewals asked for and not granted yet, by sequence number: when each was asked for. */
        private final Map<Long, Long> asked = new ConcurrentHashMap<>();

        private final AtomicLong sequence = new AtomicLong();

        /** The length of the latest grant; until the first, a second. */
        private volatile long grantedMillis = 1_000;

        /** A renewal asked for now: its sequence number. */
        long ask() {
            long seq = sequence.incrementAndGet();
            asked.put(seq, System.nanoTime());
            return seq;
        }

        /** The catalog granted renewal {@code seq} for {@code millis}: the lease runs until then from the asking. */
        void granted(long seq, long millis) {
            Long askedAt = asked.remove(seq);
            if (askedAt == null || millis <= 0) return;
            asked.keySet().removeIf(older -> older < seq);
            grantedMillis = millis;
            long until = askedAt + TimeUnit.MILLISECONDS.toNanos(millis);
            synchronized (this) {
                if (until - untilNanos > 0) untilNanos = until;
            }
        }

        /** Whether it holds now; the first time it is found run out, the cache is marked as having missed changes. */
        boolean holds(long now) {
            if (now - untilNanos < 0) {
                lapsed = false;
                return true;
            }
            if (!lapsed) {
                lapsed = true;
                changes.incrementAndGet();
            }
            return false;
        }

        /**
         * The oldest renewal still not granted was asked for more than two lease lengths ago: the catalog is silent
         * (frozen, dead, cut off), and its session is no use.
         */
        boolean silent(long now) {
            long limit = TimeUnit.MILLISECONDS.toNanos(2 * grantedMillis);
            return asked.values().stream().anyMatch(askedAt -> now - askedAt > limit);
        }
    }

    private final Map<String, Lease> leases = new ConcurrentHashMap<>();
    private final AtomicLong changes = new AtomicLong();

    /** A catalog connected: until it grants a lease the cache is not used, and what it holds may be stale. */
    Lease opened(String session) {
        Lease lease = new Lease();
        leases.put(session, lease);
        changes.incrementAndGet();
        return lease;
    }

    /** A catalog's session ended: it may have answered writes this frontend did not hear of. */
    void closed(String session) {
        if (leases.remove(session) != null) changes.incrementAndGet();
    }

    /** Whether cached books may be served and kept now. */
    public boolean trusted() {
        if (leases.isEmpty()) return false;
        long now = System.nanoTime();
        boolean all = true;
        for (Lease lease : leases.values()) all &= lease.holds(now);
        return all;
    }

    /**
     * Grows whenever the cache may have missed an invalidation (a catalog connected or left, a lease ran out): the
     * cache empties itself when it sees it changed.
     */
    public long changes() {
        return changes.get();
    }

    /** Catalogs holding a session now. */
    public int sessions() {
        return leases.size();
    }

    /** Always trusted: for a cache used without catalogs (unit tests, benchmarks). */
    public static CatalogLeases always() {
        return new CatalogLeases() {
            @Override
            public boolean trusted() {
                return true;
            }

            @Override
            public long changes() {
                return 0;
            }
        };
    }
}
