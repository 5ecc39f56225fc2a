package dev.agora.catalog.book;

/**
 * Told about every change of a book before the write that made it is answered. The catalog's implementation
 * pushes cache invalidations to the frontends; it never throws.
 */
public interface BookChangeListener {

    /** Tells no one: for a catalog that serves no caching frontend. */
    BookChangeListener NOBODY = new BookChangeListener() {
        @Override
        public Announcement announce(BookChanged change) {
            return Announcement.NONE;
        }

        @Override
        public boolean listening() {
            return false;
        }
    };

    /**
     * Starts telling of a change that has committed or is about to; the write is answered only after
     * {@link Announcement#await()}. Announcing before the commit lets the push overlap the commit's flush to
     * disk, and it is safe: an invalidation raises the version below which a frontend refuses the book, so a
     * frontend reading the book before the commit gets the old version and does not keep it. Should the commit
     * fail, frontends refuse that book's current version until its next change commits: cache misses, never a
     * stale answer.
     */
    Announcement announce(BookChanged change);

    /**
     * As {@link #announce(BookChanged)}, for a change that {@code writes} writes made together (a batch of
     * reservations of one book): each of them calls {@link Announcement#await()} once, on the thread that answers it,
     * and the announcement is over when all of them have. Every write must await it, also one that ends up not
     * answered by this change (the batch failed), or the change counts as in flight for good.
     */
    default Announcement announce(BookChanged change, int writes) {
        return announce(change);
    }

    /**
     * Whether changes reach anyone; when not, a write need not make room for an announcement before its
     * commit (which costs it a round trip to the database of its own).
     */
    default boolean listening() {
        return true;
    }

    /** A committed change, announced and awaited. */
    default void bookChanged(BookChanged change) {
        announce(change).await();
    }

    /** Pushes under way. */
    @FunctionalInterface
    interface Announcement {

        Announcement NONE = () -> {};

        /**
         * Returns when every awaited frontend took the change or can no longer use its cache (its lease ran out).
         * Never throws.
         */
        void await();
    }
}
