package dev.agora.catalog.files;

import dev.agora.catalog.book.BookChanged;
import dev.agora.common.timing.ServerTiming;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.springframework.data.domain.PageRequest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

/**
 * The index of book files in the catalog's PostgreSQL. Downloads and searches are one statement each (the hot
 * paths, as in {@code BookReads}); a book's list of files is read through JPA; a registration is one transaction.
 */
@Repository
class FileIndex {

    /** The nodes that hold a file's blob, as a sorted array. */
    private static final String NODES = "ARRAY(SELECT c.node FROM blob_copies c WHERE c.hash = f.hash ORDER BY c.node)";

    private final JdbcClient jdbc;
    private final BookFileRepository files;

    FileIndex(JdbcClient jdbc, BookFileRepository files) {
        this.jdbc = jdbc;
        this.files = files;
    }

    Optional<String> bookTitle(long bookId) {
        return jdbc.sql("SELECT title FROM books WHERE id = ?")
                .param(bookId)
                .query(String.class)
                .optional();
    }

    /**
     * The book as it stands now, as a change to announce (its current version: a file is not part of the book's row,
     * so registering one leaves the version as it is); empty for an unknown book.
     */
    Optional<BookChanged> currentState(long bookId) {
        return jdbc.sql("SELECT version, topic FROM books WHERE id = ?")
                .param(bookId)
                .query((row, n) -> new BookChanged(bookId, row.getLong(1), row.getString(2), false))
                .optional();
    }

    /** The nodes holding a blob already stored (empty list: every node reaches it), or empty when it is new. */
    Optional<List<String>> holdersOf(String hash) {
        return jdbc.sql("SELECT " + NODES.replace("f.hash", "b.hash") + " FROM blobs b WHERE b.hash = ?")
                .param(hash)
                .query((rows, n) -> strings(rows.getArray(1)))
                .optional();
    }

    /** @param revision the name's new revision (V7__book_file_revisions.sql) */
    record Saved(boolean created, Instant at, long revision) {}

    /**
     * Names the blob as the book's file {@code name}, replacing what the name held before. The blob and its holders
     * are recorded first, in the same transaction: the row appears complete or not at all.
     */
    @Transactional
    Saved save(long bookId, String name, String mediaType, String hash, long size, List<String> holders) {
        jdbc.sql("INSERT INTO blobs (hash, size) VALUES (?, ?) ON CONFLICT (hash) DO NOTHING")
                .params(hash, size)
                .update();
        for (String node : holders) {
            jdbc.sql("INSERT INTO blob_copies (hash, node) VALUES (?, ?) ON CONFLICT DO NOTHING")
                    .params(hash, node)
                    .update();
        }
        return jdbc.sql(
                        """
                        INSERT INTO book_files (book_id, name, hash, size, media_type, created)
                        VALUES (?, ?, ?, ?, ?, now())
                        ON CONFLICT (book_id, name) DO UPDATE
                            SET hash = excluded.hash, size = excluded.size, media_type = excluded.media_type,
                                created = excluded.created, revision = nextval('book_file_revisions')
                        RETURNING (xmax = 0) AS created, created AS at, revision""")
                .params(bookId, name, hash, size, mediaType)
                .query((rows, n) -> new Saved(rows.getBoolean(1), instant(rows, 2), rows.getLong(3)))
                .single();
    }

    Optional<StoredFile> find(long bookId, String name) {
        return ServerTiming.measure(
                ServerTiming.DB, () -> jdbc.sql("SELECT f.hash, f.size, f.media_type, f.created, f.revision, " + NODES
                                + " FROM book_files f WHERE f.book_id = ? AND f.name = ?")
                        .params(bookId, name)
                        .query((rows, n) -> new StoredFile(
                                rows.getString(1),
                                rows.getLong(2),
                                rows.getString(3),
                                instant(rows, 4),
                                rows.getLong(5),
                                strings(rows.getArray(6))))
                        .optional());
    }

    /** At most {@code limit} of the book's files, by name, those whose name comes after {@code after} ("": all). */
    @Transactional(readOnly = true)
    List<FileView> ofBook(long bookId, String title, String after, int limit) {
        return files.ofBook(bookId, after, PageRequest.of(0, limit)).stream()
                .map(f -> f.view(title))
                .toList();
    }

    /**
     * Files whose name starts with {@code query}, or whose book's title or topic contains it, case ignored; at most
     * {@code limit}, by book and name. One call of {@code search_files} (V6__search_files_function.sql), whose plan is
     * made once per connection: the name prefix goes to it also as a range of the name index, which a plan made
     * without knowing the query can use.
     */
    List<FileView> search(String query, int limit) {
        String prefix = query.toLowerCase(Locale.ROOT);
        String text = escapeLike(prefix);
        // No string lies above a prefix of U+10FFFF alone; unassigned, it starts no name (FileName): an empty range.
        String above = Objects.requireNonNullElse(above(prefix), prefix);
        return ServerTiming.measure(
                ServerTiming.DB, () -> jdbc.sql("SELECT * FROM search_files(:from, :to, :prefix, :contains, :limit)")
                        .param("from", prefix)
                        .param("to", above)
                        .param("prefix", text + "%")
                        .param("contains", "%" + text + "%")
                        .param("limit", limit)
                        .query((rows, n) -> new FileView(
                                rows.getLong(1),
                                rows.getString(2),
                                rows.getString(3),
                                rows.getLong(4),
                                rows.getString(5),
                                rows.getString(6),
                                instant(rows, 7),
                                strings(rows.getArray(8))))
                        .list());
    }

    /**
     * The least string above every string that starts with {@code prefix} in code point order, which is the byte
     * order of their UTF-8 and so the name index's order: the prefix with its last code point raised by one (a code
     * point that cannot be raised is dropped and the one before it raised). Null when there is none.
     */
    static String above(String prefix) {
        int[] codePoints = prefix.codePoints().toArray();
        for (int last = codePoints.length - 1; last >= 0; last--) {
            int next = codePoints[last] + 1;
            if (next >= Character.MIN_SURROGATE && next <= Character.MAX_SURROGATE) next = Character.MAX_SURROGATE + 1;
            if (next <= Character.MAX_CODE_POINT) {
                codePoints[last] = next;
                return new String(codePoints, 0, last + 1);
            }
        }
        return null;
    }

    private static String escapeLike(String text) {
        return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }

    private static Instant instant(ResultSet rows, int column) throws SQLException {
        return rows.getObject(column, OffsetDateTime.class).toInstant();
    }

    private static List<String> strings(Array array) throws SQLException {
        try {
            return Arrays.stream((Object[]) array.getArray())
                    .map(String::valueOf)
                    .toList();
        } finally {
            array.free();
        }
    }
}
