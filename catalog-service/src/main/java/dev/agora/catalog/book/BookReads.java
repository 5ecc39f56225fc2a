package dev.agora.catalog.book;

import dev.agora.common.timing.ServerTiming;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The read side: a lookup or a search is one query of a projection (no entity is loaded, so there is nothing to
 * track), in a read-only transaction.
 */
@Service
@Transactional(readOnly = true)
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
