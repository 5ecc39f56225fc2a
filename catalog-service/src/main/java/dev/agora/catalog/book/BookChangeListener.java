package dev.agora.catalog.book;

/**
 * Told about every committed change of a book, before the write that made it is answered. The catalog's
 * implementation pushes cache invalidations to the frontends; it never throws.
 */
public interface BookChangeListener {

    void bookChanged(BookChanged change);
}
