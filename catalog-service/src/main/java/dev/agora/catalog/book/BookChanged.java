package dev.agora.catalog.book;

/**
 * A committed change of one book: of its row, or of one of its files. {@code searchAffected} is true when search
 * results (id and title per topic) may have changed, i.e. for a new title.
 *
 * @param file the file given new content, or null for a change of the book's row
 */
public record BookChanged(long bookId, long version, String topic, boolean searchAffected, FileChange file) {

    /** A change of the book's row. */
    public BookChanged(long bookId, long version, String topic, boolean searchAffected) {
        this(bookId, version, topic, searchAffected, null);
    }

    /**
     * The book's file {@code name} was registered, with that name's new revision; the book's row (and version) are
     * as they were.
     */
    public BookChanged withFile(String name, long revision) {
        return new BookChanged(bookId, version, topic, searchAffected, new FileChange(name, revision));
    }

    /** A name that got new content, and the revision it got. */
    public record FileChange(String name, long revision) {}
}
