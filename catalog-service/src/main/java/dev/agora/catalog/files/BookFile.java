package dev.agora.catalog.files;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;

/**
 * A file of a book: its name within the book, its type, its name's revision and the blob with its bytes (by hash).
 * A registration writes it through single upsert statements ({@link BookFileRepository#insertFile},
 * {@link BookFileRepository#replaceFile}), so concurrent uploads of one name cannot both insert.
 */
@Entity
@Table(name = "book_files")
@IdClass(BookFile.Key.class)
class BookFile {

    /** The primary key, as JPA's {@code @IdClass} wants it: fields named as the entity's {@code @Id}s. */
    static final class Key implements Serializable {
        private long bookId;
        private String name;

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && key.bookId == bookId && Objects.equals(key.name, name);
        }

        @Override
        public int hashCode() {
            return Objects.hash(bookId, name);
        }
    }

    @Id
    @Column(name = "book_id")
    private long bookId;

    @Id
    @Column(length = 255)
    private String name;

    /** The blob's SHA-256 ({@link StoredBlob}). */
    @Column(nullable = false, length = 64)
    private String hash;

    @Column(nullable = false)
    private long size;

    @Column(name = "media_type", nullable = false, length = 100)
    private String mediaType;

    @Column(nullable = false)
    private Instant created;

    /** From the sequence {@code book_file_revisions} (V7), on every registration of the name. */
    @Column(nullable = false)
    private long revision;

    protected BookFile() {}
}
