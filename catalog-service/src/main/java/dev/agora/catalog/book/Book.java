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
 * A title in the catalog. Reads and new titles go through JPA; every change of an existing row is one
 * conditional SQL UPDATE instead (see {@link ManagingBooks}), so concurrent writers never lose an update.
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

    /** Grows by one on every change of the row; the frontend cache orders invalidations by it. */
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

    BookView view() {
        return new BookView(id, title, topic, price, stock, version);
    }
}
