package dev.agora.catalog.book;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The stock of several books whose rows one transaction holds locked ({@link BookStock#lockAll}), for a batch of
 * takes decided one after another in Java: each take sees the stock the takes before it left, takes the copies only
 * when enough are left (the rule of {@link Book#take}: never below zero) and raises the version by one. Nothing is
 * written here: the caller writes {@link #takenBookIds}, {@link #copiesTaken} and {@link #takes} in its own statement,
 * while the rows are still locked.
 */
public final class LockedStock {

    private final Map<Long, Copies> books = new LinkedHashMap<>();

    LockedStock(List<BookRepository.LockedRow> rows) {
        for (BookRepository.LockedRow row : rows) books.put(row.id(), new Copies(row));
    }

    /** Takes the copies when enough are left; empty for a book that is not among the locked ones (unknown). */
    public Optional<BookStock.Take> take(long bookId, int quantity) {
        if (quantity <= 0) throw new IllegalArgumentException("quantity must be positive: " + quantity);
        Copies book = books.get(bookId);
        return book == null ? Optional.empty() : Optional.of(book.take(quantity));
    }

    /** Each book some take changed, as it stands after the last of them: what to announce, once per book. */
    public List<BookChanged> changes() {
        List<BookChanged> changed = new ArrayList<>();
        for (Copies book : books.values()) if (book.takes > 0) changed.add(book.state());
        return changed;
    }

    /** The books copies were taken from; {@link #copiesTaken} and {@link #takes} in the same order. */
    public Long[] takenBookIds() {
        return books.values().stream()
                .filter(b -> b.takes > 0)
                .map(b -> b.row.id())
                .toArray(Long[]::new);
    }

    /** Copies taken from each book of {@link #takenBookIds}: what its stock goes down by. */
    public Long[] copiesTaken() {
        return books.values().stream()
                .filter(b -> b.takes > 0)
                .map(b -> b.row.stock() - b.stock)
                .toArray(Long[]::new);
    }

    /** Takes of each book of {@link #takenBookIds}: what its version goes up by. */
    public Long[] takes() {
        return books.values().stream()
                .filter(b -> b.takes > 0)
                .map(b -> (long) b.takes)
                .toArray(Long[]::new);
    }

    /** One locked book as the takes so far left it. */
    private static final class Copies {

        private final BookRepository.LockedRow row;
        private long stock;
        private long version;
        private int takes;

        Copies(BookRepository.LockedRow row) {
            this.row = row;
            this.stock = row.stock();
            this.version = row.version();
        }

        BookStock.Take take(int quantity) {
            BookChanged before = state();
            if (stock < quantity) return new BookStock.Take(false, row.price(), stock, before, null);
            stock -= quantity;
            version++;
            takes++;
            return new BookStock.Take(true, row.price(), stock, before, state());
        }

        BookChanged state() {
            return new BookChanged(row.id(), version, row.topic(), false);
        }
    }
}
