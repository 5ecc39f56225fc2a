package dev.agora.catalog.book;

import java.math.BigDecimal;
import java.util.Collection;
import java.util.Optional;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Copies of a book taken for a record kept elsewhere (a reservation), inside the caller's transaction. The common
 * case is one conditional update that takes the copies only when enough are left and returns the row
 * ({@link BookRepository#takeIfLeft}); it holds the row locked until that transaction ends, so takers of one book
 * take turns, none takes the stock below zero, and no decrement is lost. When it takes nothing, the book is read
 * locked ({@code SELECT ... FOR NO KEY UPDATE}) and decided again in Java ({@link Book#take}): the refusal records the
 * stock that refused it, and a restock committed between the two statements is not refused. A caller that rolls back
 * gives the copies back.
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

    /**
     * Locks the books (in id order, {@link BookRepository#lockAll}) for a batch of takes decided in Java
     * ({@link LockedStock}); unknown ids are not among them. {@code lockWait} bounds this transaction's waits for a
     * lock from here on (a PostgreSQL interval such as {@code 200ms}).
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public LockedStock lockAll(Collection<Long> bookIds, String lockWait) {
        return new LockedStock(books.lockAll(bookIds.toArray(Long[]::new), lockWait));
    }

    /** Locks the book and takes the copies when enough are left; empty for an unknown book. */
    @Transactional(propagation = Propagation.MANDATORY)
    public Optional<Take> take(long bookId, int quantity) {
        if (quantity <= 0) throw new IllegalArgumentException("quantity must be positive: " + quantity);
        Optional<BookRepository.TakenCopies> fromStock = books.takeIfLeft(bookId, quantity);
        if (fromStock.isPresent()) {
            BookRepository.TakenCopies row = fromStock.get();
            // The row is still locked: before the update it was the committed state with the previous version.
            BookChanged before = new BookChanged(bookId, row.version() - 1, row.topic(), false);
            BookChanged after = new BookChanged(bookId, row.version(), row.topic(), false);
            return Optional.of(new Take(true, row.price(), row.stock(), before, after));
        }
        return books.lockById(bookId).map(book -> {
            BookChanged before = book.state();
            boolean taken = book.take(quantity);
            return new Take(taken, book.price(), book.stock(), before, taken ? book.state() : null);
        });
    }
}
