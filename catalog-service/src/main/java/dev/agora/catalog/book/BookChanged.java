package dev.agora.catalog.book;

/**
 * A committed change of one book row. {@code searchAffected} is true when search results (id and title per
 * topic) may have changed, i.e. for a new title.
 */
public record BookChanged(long bookId, long version, String topic, boolean searchAffected) {}
