package dev.agora.catalog.book;

import java.math.BigDecimal;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * Admin use cases: register a title, change a price, restock. Each change is one statement (its own
 * transaction), and listeners hear of it after it committed and before the caller gets the answer.
 */
@Service
public class ManagingBooks {

    private static final String RETURNING_BOOK = " RETURNING id, title, topic, price, stock, version";

    private final BookRepository books;
    private final JdbcClient jdbc;
    private final BookChangeListener changes;

    ManagingBooks(BookRepository books, JdbcClient jdbc, BookChangeListener changes) {
        this.books = books;
        this.jdbc = jdbc;
        this.changes = changes;
    }

    public BookView register(String title, String topic, BigDecimal price, long stock) {
        BookView registered = books.save(new Book(title, topic, price, stock)).view();
        changes.bookChanged(new BookChanged(registered.id(), registered.version(), registered.topic(), true));
        return registered;
    }

    public Optional<BookView> changePrice(long bookId, BigDecimal price) {
        return changed(
                jdbc.sql("UPDATE books SET price = :price, version = version + 1 WHERE id = :id" + RETURNING_BOOK)
                        .param("price", price)
                        .param("id", bookId)
                        .query(BookView.class)
                        .optional());
    }

    /** Adds copies in one atomic statement, so a restock racing with reservations loses none of them. */
    public Optional<BookView> restock(long bookId, long quantity) {
        return changed(jdbc.sql("UPDATE books SET stock = stock + :quantity, version = version + 1 WHERE id = :id"
                        + RETURNING_BOOK)
                .param("quantity", quantity)
                .param("id", bookId)
                .query(BookView.class)
                .optional());
    }

    private Optional<BookView> changed(Optional<BookView> book) {
        book.ifPresent(b -> changes.bookChanged(new BookChanged(b.id(), b.version(), b.topic(), false)));
        return book;
    }
}
