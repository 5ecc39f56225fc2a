package dev.agora.catalog.book;

import java.net.URI;
import java.util.Optional;

/**
 * Told about every change of a book before the write that made it is answered. The catalog's implementation
 * pushes cache invalidations to the frontends; it never throws.
 */
public interface BookChangeListener {

    /** Tells no one: for a catalog that serves no caching frontend. */
    BookChangeListener NOBODY = new BookChangeListener() {
        @Override
        public Announcement announce(BookChanged change, Optional<URI> writingFrontend) {
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
     *
     * @param writingFrontend the frontend the write came through, which updates its own cache when the answer
     *     reaches it ({@link dev.agora.common.web.WritingFrontend}); empty for writes of no frontend
     */
    Announcement announce(BookChanged change, Optional<URI> writingFrontend);

    /**
     * Whether changes reach anyone; when not, a write need not make room for an announcement before its
     * commit (which costs it a round trip to the database of its own).
     */
    default boolean listening() {
        return true;
    }

    /** A committed change, announced and awaited. */
    default void bookChanged(BookChanged change, Optional<URI> writingFrontend) {
        announce(change, writingFrontend).await();
    }

    default void bookChanged(BookChanged change) {
        bookChanged(change, Optional.empty());
    }

    /** Pushes under way. */
    @FunctionalInterface
    interface Announcement {

        Announcement NONE = () -> {};

        /** Returns when every awaited frontend took the change, or the push deadline passed. Never throws. */
        void await();
    }
}
