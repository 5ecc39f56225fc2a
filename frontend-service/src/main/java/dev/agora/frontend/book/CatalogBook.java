package dev.agora.frontend.book;

import java.math.BigDecimal;

/** A book as the catalog serves it; {@code version} grows by one with every change of the row. */
public record CatalogBook(long id, String title, String topic, BigDecimal price, long stock, long version) {}
