package dev.agora.frontend.files;

import dev.agora.frontend.book.BookSideCache;
import java.util.List;

/**
 * A book's files, as anyone may see them: from the cache kept beside the book when it has them, else from a catalog
 * node (the index). The JSON API and the book's web page both answer from here. A registration is announced by the
 * catalog as a change of the book before the upload is answered, which drops the book's list here.
 */
public final class ListingFiles {

    private final CatalogNodes nodes;
    private final BookSideCache<List<FileView>> cache;

    ListingFiles(CatalogNodes nodes, BookSideCache<List<FileView>> cache) {
        this.nodes = nodes;
        this.cache = cache;
    }

    /** The most files the catalog lists in one answer, and what a listing answers unless asked for fewer. */
    public static final int LIMIT = 1000;

    /**
     * The book's first {@link #LIMIT} files, by name (the book page's list, kept beside the book); the catalog's
     * problem (an unknown book: 404) or unavailability is thrown as the upstream call throws it.
     */
    public List<FileView> ofBook(long bookId) {
        return ofBook(bookId, "", LIMIT);
    }

    /** At most {@code limit} of the book's files, by name, those after {@code after} ("": from the first). */
    public List<FileView> ofBook(long bookId, String after, int limit) {
        boolean firstPage = after.isEmpty() && limit == LIMIT;
        if (firstPage) {
            List<FileView> cached = cache.cached(bookId);
            if (cached != null) return cached;
        }
        long ticket = cache.ticket();
        List<CatalogFile> read =
                nodes.read(index -> firstPage ? index.ofBook(bookId, null, null) : index.ofBook(bookId, after, limit));
        List<FileView> files =
                read == null ? List.of() : read.stream().map(CatalogFile::view).toList();
        if (firstPage) cache.offer(bookId, files, ticket);
        return files;
    }
}
