package dev.agora.frontend.book;

import java.math.BigDecimal;

/** The public lookup answer; the version stays between the tiers. */
record BookView(long id, String title, String topic, BigDecimal price, long stock) {

    static BookView of(CatalogBook book) {
        return new BookView(book.id(), book.title(), book.topic(), book.price(), book.stock());
    }
}
