package dev.agora.catalog.book;

import dev.agora.common.timing.ServerTiming;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Service;

/**
 * The read side: a lookup or a search is one query of a projection (no entity is loaded, so there is nothing to
 * track). Each runs as its own statement in auto-commit, outside any transaction: one statement sees one snapshot
 * either way, and a read-only transaction around it cost a {@code COMMIT} round trip and Spring's and Hibernate's
 * work to begin and end it.
 */
@Service
class BookReads {

    private final BookRepository books;

    BookReads(BookRepository books) {
        this.books = books;
    }

    Optional<BookView> lookup(long id) {
        return ServerTiming.measure(ServerTiming.DB, () -> books.findView(id));
    }

    List<BookSummary> search(String topic) {
        return ServerTiming.measure(ServerTiming.DB, () -> books.search(topic));
    }
}
