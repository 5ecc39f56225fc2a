package dev.agora.catalog.book;

import java.math.BigDecimal;
import java.util.Optional;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Copies of a book taken for a record kept elsewhere (a reservation), inside the caller's transaction. The book's
 * row is locked first ({@code SELECT ... FOR NO KEY UPDATE}) and stays locked until that transaction ends, so takers
 * of one book take turns and each decides on the stock the one before it left: none takes the stock below zero
 * ({@link Book#take}), and no decrement is lost. The change is written when the caller's transaction flushes; a
 * caller that rolls back gives the copies back.
 */
@Component
public class BookStock {

    private final BookRepository books;

    BookStock(BookRepository books) {
        this.books = books;
    }

    /**
     * What a take came to.
     *
     * @param taken whether the copies were taken (else too few were left and nothing changed)
     * @param unitPrice the book's price
     * @param stockAfter the stock left (after the take when taken)
     * @param before the book as it stood before this take: its committed state, while the lock is held
     * @param after the book as the take left it (its version raised), to announce; null when nothing was taken
     */
    public record Take(boolean taken, BigDecimal unitPrice, long stockAfter, BookChanged before, BookChanged after) {}

    /** Locks the book and takes the copies when enough are left; empty for an unknown book. */
    @Transactional(propagation = Propagation.MANDATORY)
    public Optional<Take> take(long bookId, int quantity) {
        return books.lockById(bookId).map(book -> {
            BookChanged before = book.state();
            boolean taken = book.take(quantity);
            return new Take(taken, book.price(), book.stock(), before, taken ? book.state() : null);
        });
    }
}
