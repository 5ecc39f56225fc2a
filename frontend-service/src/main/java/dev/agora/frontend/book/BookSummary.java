package dev.agora.frontend.book;

/** One search hit. */
public record BookSummary(long id, String title) {}
