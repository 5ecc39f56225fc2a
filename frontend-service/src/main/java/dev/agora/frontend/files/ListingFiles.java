package dev.agora.frontend.files;

import dev.agora.frontend.book.BookSideCache;
import java.util.List;
import org.springframework.core.ParameterizedTypeReference;

/**
 * A book's files, as anyone may see them: from the cache kept beside the book when it has them, else from a catalog
 * node (the index). The JSON API and the book's web page both answer from here. A registration is announced by the
 * catalog as a change of the book before the upload is answered, which drops the book's list here.
 */
public final class ListingFiles {

    private static final ParameterizedTypeReference<List<CatalogFile>> FILES = new ParameterizedTypeReference<>() {};

    private final CatalogNodes nodes;
    private final BookSideCache<List<FileView>> cache;

    ListingFiles(CatalogNodes nodes, BookSideCache<List<FileView>> cache) {
        this.nodes = nodes;
        this.cache = cache;
    }

    /**
     * The book's files, by name; the catalog's problem (an unknown book: 404) or unavailability is thrown as the
     * upstream call throws it.
     */
    public List<FileView> ofBook(long bookId) {
        List<FileView> cached = cache.cached(bookId);
        if (cached != null) return cached;
        long ticket = cache.ticket();
        List<CatalogFile> read = nodes.read("/books/" + bookId + "/files", FILES);
        List<FileView> files =
                read == null ? List.of() : read.stream().map(CatalogFile::view).toList();
        cache.offer(bookId, files, ticket);
        return files;
    }
}
