package dev.agora.frontend.book;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;

/** A committed change of a book, pushed by a catalog replica: the book's new version. */
record Invalidation(
        @NotNull @Positive Long bookId,
        @NotNull @Positive Long version,
        @Size(max = 100) String topic,
        Boolean searchAffected) {

    boolean affectsSearch() {
        return Boolean.TRUE.equals(searchAffected);
    }
}
