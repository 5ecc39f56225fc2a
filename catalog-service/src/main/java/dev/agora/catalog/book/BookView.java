package dev.agora.catalog.book;

import java.math.BigDecimal;

/** A book as lookups and admin calls return it. */
public record BookView(long id, String title, String topic, BigDecimal price, long stock, long version) {}
