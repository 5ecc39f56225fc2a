package dev.agora.catalog.files;

import dev.agora.catalog.book.BookChanged;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;

/**
 * The index of book files: files, blobs and their copies. Writes are single statements that cannot lose a race
 * (inserts that do nothing on a conflict, an update that takes the name's row lock); reads are projections.
 */
interface BookFileRepository extends JpaRepository<BookFile, BookFile.Key> {

    String ROW = "select new dev.agora.catalog.files.FileRow(f.bookId, b.title, f.name, f.size, f.mediaType, f.hash,"
            + " f.created, f.revision, ";
    String FILES = " from BookFile f join Book b on b.id = f.bookId ";

    @Query("select b.title from Book b where b.id = :bookId")
    Optional<String> bookTitle(long bookId);

    @Query("select new dev.agora.catalog.book.BookChanged(b.id, b.version, b.topic, false) from Book b"
            + " where b.id = :bookId")
    Optional<BookChanged> bookState(long bookId);

    /** One row per node holding the blob, one null when none is listed; no row when the blob is not stored. */
    @Query("select c.node from StoredBlob s left join BlobCopy c on c.hash = s.hash where s.hash = :hash"
            + " order by c.node")
    List<String> holders(String hash);

    @Modifying
    @Query("insert into StoredBlob (hash, size, created) values (:hash, :size, current_timestamp)"
            + " on conflict do nothing")
    int insertBlob(String hash, long size);

    @Modifying
    @Query("insert into BlobCopy (hash, node) values (:hash, :node) on conflict do nothing")
    int insertCopy(String hash, String node);

    /** 1 when the name is new to the book (its revision comes from the column's default), else 0 and no change. */
    @Modifying
    @Query(
            """
            insert into BookFile (bookId, name, hash, size, mediaType, created)
            values (:bookId, :name, :hash, :size, :mediaType, current_timestamp)
            on conflict do nothing""")
    int insertFile(long bookId, String name, String hash, long size, String mediaType);

    /**
     * New content for an existing name. The new revision is taken in the update, once it holds the name's row lock
     * (a waiting update is evaluated again after the lock is granted), so a name's revisions rise in the order its
     * registrations commit.
     */
    @Modifying
    @Query(
            """
            update BookFile f set f.hash = :hash, f.size = :size, f.mediaType = :mediaType,
                f.created = current_timestamp, f.revision = cast(function('nextval', 'book_file_revisions') as Long)
            where f.bookId = :bookId and f.name = :name""")
    int replaceFile(long bookId, String name, String hash, long size, String mediaType);

    /** The file, one row per node holding its blob (one row with a null node when none is listed). */
    @Query(ROW + "c.node)" + FILES + "left join BlobCopy c on c.hash = f.hash"
            + " where f.bookId = :bookId and f.name = :name order by c.node")
    List<FileRow> find(long bookId, String name);

    /** The book's files by name, those after {@code after} (all when it is empty), the first {@code page.size}. */
    @Query(ROW + "cast(null as String))" + FILES + "where f.bookId = :bookId and f.name > :after order by f.name")
    List<FileRow> ofBook(long bookId, String after, Pageable page);

    /**
     * Files whose lower-cased name lies in [{@code from}, {@code to}) in code point order and matches the
     * {@code prefix} pattern ({@code !} escapes), by that order. The range is what reaches the name index
     * ({@code V8}) also with a plan made once for unknown parameters; the pattern is the exact condition.
     */
    @Query(
            ROW + "cast(null as String))" + FILES
                    + """
            where collate(lower(f.name) as ucs_basic) >= :from and collate(lower(f.name) as ucs_basic) < :to
                and lower(f.name) like :prefix escape '!'
            order by collate(lower(f.name) as ucs_basic)""")
    List<FileRow> namesFrom(String from, String to, String prefix, Pageable page);

    /** Files whose book's title or topic, lower-cased, matches the {@code contains} pattern, by book and name. */
    @Query(
            ROW + "cast(null as String))" + FILES
                    + """
            where lower(b.title) like :contains escape '!' or lower(b.topic) like :contains escape '!'
            order by f.bookId, f.name""")
    List<FileRow> ofBooksMatching(String contains, Pageable page);

    /** The nodes holding each of these blobs: one row per copy, ordered by node. */
    @Query("select new dev.agora.catalog.files.HeldCopy(c.hash, c.node) from BlobCopy c where c.hash in :hashes"
            + " order by c.node")
    List<HeldCopy> copiesOf(Collection<String> hashes);
}
