package dev.agora.catalog.book;

import java.math.BigDecimal;
import java.util.Optional;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Admin use cases: register a title, change a price, restock. Each change is one transaction, and listeners hear
 * of it after it committed and before the caller gets the answer. A change of an existing title is one conditional
 * update (the stock and the version move inside the database, so it loses no concurrent reservation) followed by a
 * read of the row it holds locked.
 */
@Service
public class ManagingBooks {

    private final BookRepository books;
    private final TransactionTemplate transactions;
    private final BookChangeListener changes;

    ManagingBooks(BookRepository books, TransactionTemplate transactions, BookChangeListener changes) {
        this.books = books;
        this.transactions = transactions;
        this.changes = changes;
    }

    public BookView register(String title, String topic, BigDecimal price, long stock) {
        BookView registered = books.save(new Book(title, topic, price, stock)).view();
        changes.bookChanged(new BookChanged(registered.id(), registered.version(), registered.topic(), true));
        return registered;
    }

    public Optional<BookView> changePrice(long bookId, BigDecimal price) {
        return changed(transactions.execute(
                status -> books.changePrice(bookId, price) == 0 ? Optional.empty() : books.findView(bookId)));
    }

    /** Adds copies in one atomic statement, so a restock racing with reservations loses none of them. */
    public Optional<BookView> restock(long bookId, long quantity) {
        return changed(transactions.execute(
                status -> books.restock(bookId, quantity) == 0 ? Optional.empty() : books.findView(bookId)));
    }

    private Optional<BookView> changed(Optional<BookView> book) {
        book.ifPresent(b -> changes.bookChanged(new BookChanged(b.id(), b.version(), b.topic(), false)));
        return book;
    }
}
