package dev.agora.catalog.book;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * A title in the catalog and its stock. Copies are taken only from a book whose row this transaction holds locked
 * ({@link BookStock}); price changes and restocks are single conditional updates ({@link BookRepository}), so
 * concurrent writers never lose an update.
 */
@Entity
@Table(name = "books")
class Book {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(nullable = false, length = 200)
    private String title;

    @Column(nullable = false, length = 100)
    private String topic;

    @Column(nullable = false, precision = 10, scale = 2)
    private BigDecimal price;

    @Column(nullable = false)
    private long stock;

    /**
     * Grows by one on every change of the row; the frontend cache orders invalidations by it. Not JPA's
     * {@code @Version}: writers do not race on it optimistically, they hold the row (a reservation) or change it in
     * one statement (admin changes), and a change must know its new version before it commits, to announce it.
     */
    @Column(nullable = false)
    private long version;

    protected Book() {}

    Book(String title, String topic, BigDecimal price, long stock) {
        this.title = title;
        this.topic = topic;
        this.price = price.setScale(2, RoundingMode.UNNECESSARY);
        this.stock = stock;
        this.version = 1;
    }

    /**
     * Takes {@code quantity} copies when that many are left, never taking the stock below zero; a change of the row,
     * so its version grows. False, and nothing changes, when too few are left.
     */
    boolean take(int quantity) {
        if (quantity <= 0) throw new IllegalArgumentException("quantity must be positive: " + quantity);
        if (stock < quantity) return false;
        stock -= quantity;
        version++;
        return true;
    }

    BigDecimal price() {
        return price;
    }

    long stock() {
        return stock;
    }

    /** The book as it stands, as a change to announce. */
    BookChanged state() {
        return new BookChanged(id, version, topic, false);
    }

    BookView view() {
        return new BookView(id, title, topic, price, stock, version);
    }
}
