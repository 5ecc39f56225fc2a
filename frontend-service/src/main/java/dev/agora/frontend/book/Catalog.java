package dev.agora.frontend.book;

import java.util.List;
import java.util.Optional;

/** What the frontend needs from the catalog tier. */
public interface Catalog {

    /** The book, or empty when the catalog has no book with this id. */
    Optional<CatalogBook> find(long id);

    /** Id and title of every book of the topic; empty for an unknown topic. */
    List<BookSummary> search(String topic);
}
