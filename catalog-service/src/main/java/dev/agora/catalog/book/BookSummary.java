package dev.agora.catalog.book;

/** One search hit: search results list id and title only. */
public record BookSummary(long id, String title) {}
