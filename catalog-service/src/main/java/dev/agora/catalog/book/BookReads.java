package dev.agora.catalog.book;

import dev.agora.common.timing.ServerTiming;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The read side: each lookup or search is one auto-committed statement, a single round trip. (A JPA
 * repository read opens a read-only transaction around it, which costs further round trips on every call.)
 */
@Repository
class BookReads {

    private final JdbcClient jdbc;

    BookReads(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    Optional<BookView> lookup(long id) {
        return ServerTiming.measure(ServerTiming.DB, () -> jdbc.sql(
                        "SELECT id, title, topic, price, stock, version FROM books WHERE id = ?")
                .param(id)
                .query(BookView.class)
                .optional());
    }

    List<BookSummary> search(String topic) {
        return ServerTiming.measure(
                ServerTiming.DB, () -> jdbc.sql("SELECT id, title FROM books WHERE topic = ? ORDER BY id")
                        .param(topic)
                        .query(BookSummary.class)
                        .list());
    }
}
