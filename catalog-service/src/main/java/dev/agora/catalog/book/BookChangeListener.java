package dev.agora.catalog.book;

import java.net.URI;
import java.util.Optional;

/**
 * Told about every committed change of a book, before the write that made it is answered. The catalog's
 * implementation pushes cache invalidations to the frontends; it never throws.
 */
public interface BookChangeListener {

    /**
     * @param writingFrontend the frontend the write came through, which updates its own cache when the answer
     *     reaches it ({@link dev.agora.common.web.WritingFrontend}); empty for writes of no frontend
     */
    void bookChanged(BookChanged change, Optional<URI> writingFrontend);

    default void bookChanged(BookChanged change) {
        bookChanged(change, Optional.empty());
    }
}
