package dev.agora.catalog.files;

import static java.util.stream.Collectors.groupingBy;
import static java.util.stream.Collectors.mapping;
import static java.util.stream.Collectors.toList;
import static java.util.stream.Collectors.toMap;

import dev.agora.catalog.book.BookChanged;
import dev.agora.common.timing.ServerTiming;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import org.springframework.data.domain.PageRequest;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

/**
 * The index of book files in the catalog's PostgreSQL, through {@link BookFileRepository}. Reads are read-only
 * transactions of projections; a download's is one query; a registration is one transaction.
 */
@Repository
@Transactional(readOnly = true)
class FileIndex {

    private static final Comparator<FileRow> BY_BOOK_AND_NAME =
            Comparator.comparingLong(FileRow::bookId).thenComparing(FileRow::name);

    private final BookFileRepository files;

    FileIndex(BookFileRepository files) {
        this.files = files;
    }

    Optional<String> bookTitle(long bookId) {
        return files.bookTitle(bookId);
    }

    /**
     * The book as it stands now, as a change to announce (its current version: a file is not part of the book's row,
     * so registering one leaves the version as it is); empty for an unknown book.
     */
    Optional<BookChanged> currentState(long bookId) {
        return files.bookState(bookId);
    }

    /** The nodes holding a blob already stored (empty list: every node reaches it), or empty when it is new. */
    Optional<List<String>> holdersOf(String hash) {
        List<String> rows = files.holders(hash);
        if (rows.isEmpty()) return Optional.empty();
        return Optional.of(rows.stream().filter(Objects::nonNull).toList());
    }

    /** @param revision the name's new revision (V7__book_file_revisions.sql) */
    record Saved(boolean created, Instant at, long revision) {}

    /**
     * Names the blob as the book's file {@code name}, replacing what the name held before. The blob and its holders
     * are recorded first, in the same transaction: the row appears complete or not at all. Two registrations of one
     * name race on its key: the insert of the second waits for the first and then finds the name taken, so it
     * replaces the content instead; both complete, the last to commit is the file's content.
     */
    @Transactional
    Saved save(long bookId, String name, String mediaType, String hash, long size, List<String> holders) {
        files.insertBlob(hash, size);
        for (String node : holders) files.insertCopy(hash, node);
        boolean created = files.insertFile(bookId, name, hash, size, mediaType) == 1;
        if (!created) files.replaceFile(bookId, name, hash, size, mediaType);
        FileRow saved = files.find(bookId, name).getFirst();
        return new Saved(created, saved.created(), saved.revision());
    }

    Optional<StoredFile> find(long bookId, String name) {
        return ServerTiming.measure(ServerTiming.DB, () -> {
            List<FileRow> rows = files.find(bookId, name);
            if (rows.isEmpty()) return Optional.empty();
            FileRow file = rows.getFirst();
            return Optional.of(new StoredFile(
                    file.hash(), file.size(), file.mediaType(), file.created(), file.revision(), nodes(rows)));
        });
    }

    /** At most {@code limit} of the book's files, by name, those whose name comes after {@code after} ("": all). */
    List<FileView> ofBook(long bookId, String title, String after, int limit) {
        return views(files.ofBook(bookId, after, PageRequest.of(0, limit)));
    }

    /**
     * Files whose name starts with {@code query}, or whose book's title or topic contains it, case ignored; at most
     * {@code limit}, by book and name. Two queries of at most {@code limit} hits each (names by a range of the name
     * index, books by their title and topic), merged here, and one of the nodes holding the hits' blobs.
     */
    List<FileView> search(String query, int limit) {
        String prefix = query.toLowerCase(Locale.ROOT);
        String text = escapeLike(prefix);
        // No string lies above a prefix of U+10FFFF alone; unassigned, it starts no name (FileName): an empty range.
        String above = Objects.requireNonNullElse(above(prefix), prefix);
        PageRequest first = PageRequest.of(0, limit);
        return ServerTiming.measure(ServerTiming.DB, () -> {
            List<FileRow> hits = Stream.concat(
                            files.namesFrom(prefix, above, text + "%", first).stream(),
                            files.ofBooksMatching("%" + text + "%", first).stream())
                    .collect(toMap(
                            row -> new Named(row.bookId(), row.name()),
                            Function.identity(),
                            (a, b) -> a,
                            LinkedHashMap::new))
                    .values()
                    .stream()
                    .sorted(BY_BOOK_AND_NAME)
                    .limit(limit)
                    .toList();
            return views(hits);
        });
    }

    /** A file's key: a hit of both queries is one file. */
    private record Named(long bookId, String name) {}

    /** The rows as views, each with the nodes holding its blob (one more query, for all of them). */
    private List<FileView> views(List<FileRow> rows) {
        if (rows.isEmpty()) return List.of();
        Map<String, List<String>> holders =
                files.copiesOf(rows.stream().map(FileRow::hash).distinct().toList()).stream()
                        .collect(groupingBy(HeldCopy::hash, mapping(HeldCopy::node, toList())));
        return rows.stream()
                .map(row -> new FileView(
                        row.bookId(),
                        row.title(),
                        row.name(),
                        row.size(),
                        row.mediaType(),
                        row.hash(),
                        row.created(),
                        holders.getOrDefault(row.hash(), List.of())))
                .toList();
    }

    private static List<String> nodes(List<FileRow> rows) {
        return rows.stream().map(FileRow::node).filter(Objects::nonNull).toList();
    }

    /**
     * The least string above every string that starts with {@code prefix} in code point order, which is the order of
     * the name index's collation ({@code ucs_basic}): the prefix with its last code point raised by one (a code point
     * that cannot be raised is dropped and the one before it raised). Null when there is none.
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

    /** A LIKE pattern's literal text, with {@code !} as the escape character. */
    private static String escapeLike(String text) {
        return text.replace("!", "!!").replace("%", "!%").replace("_", "!_");
    }
}
