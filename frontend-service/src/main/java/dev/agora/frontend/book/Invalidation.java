package dev.agora.frontend.book;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;

/**
 * A committed change pushed by a catalog replica: of a book's row (the book's new version), or of one of its files
 * (the file's name and that name's new revision, at the book's current version).
 */
record Invalidation(
        @NotNull @Positive Long bookId,
        @NotNull @Positive Long version,
        @Size(max = 100) String topic,
        Boolean searchAffected,
        @Size(min = 1, max = Invalidation.MAX_FILE_NAME) String fileName,
        @Positive Long fileRevision) {

    /** The longest file name a catalog registers, in characters (its {@code FileName}). */
    static final int MAX_FILE_NAME = 255;

    @AssertTrue(message = "fileName and fileRevision come together")
    boolean isFileNamedWithItsRevision() {
        return (fileName == null) == (fileRevision == null);
    }

    boolean affectsSearch() {
        return Boolean.TRUE.equals(searchAffected);
    }

    /** Whether it names a file, and so is a change of that file only; a file's name comes with its revision. */
    boolean ofFile() {
        return fileName != null;
    }

    /** Applies the change to the cache. */
    void applyTo(BookCache cache) {
        if (ofFile()) cache.fileChanged(bookId, fileName, fileRevision);
        else cache.invalidate(bookId, version, affectsSearch());
    }
}
