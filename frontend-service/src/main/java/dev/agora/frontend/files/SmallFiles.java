package dev.agora.frontend.files;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import dev.agora.frontend.book.BookCache;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The bytes of small book files kept in this frontend's memory, so a download of content seen before never reaches a
 * catalog. Two steps, with different freshness rules:
 *
 * <ul>
 *   <li><b>name to content</b> ({@code (book, name)} to {@link KeptFile}) can change: a name may be given new content.
 *       Each registration gives the name a higher revision and is announced with it ({@link #fileChanged}) before it
 *       is answered. What is known of a name is kept with its revision, and an announcement leaves a mark of its
 *       revision in its place, so an answer read at a lower revision, arriving late, is never kept.
 *   <li><b>content to bytes</b> (the SHA-256 to the bytes) never changes: files are content-addressed. It is a
 *       Caffeine cache bounded by bytes (its weigher), the least used going first.
 * </ul>
 *
 * <p>Both are filled by a download that passed through from a catalog, and by a registration that passed through
 * ({@link #filling}); the bytes are checked against their hash before they are kept. Only what the revisions cannot
 * settle goes by ticket: an emptying of the book cache (its leases lapsed, so announcements may have been missed)
 * and the eviction of what was known of a name (its mark went with it). Each takes a number from one sequence; an
 * answer asked for before the last emptying is not kept, nor one asked for before the last eviction when nothing is
 * known of its name (when something is, its revision decides: a mark evicted and made again is made by an
 * announcement or an answer, each at least as new as the one evicted). Names are used only while the book cache's
 * leases hold.
 */
final class SmallFiles implements MeterBinder, BookCache.FileChanges {

    private final long maxFileSize;
    private final BookCache books;
    /** What is known of each name, all books together, bounded by {@code FilesSettings.Memory#maxNames}. */
    private final Cache<Name, Known> names;

    private final Cache<String, byte[]> bytes;
    private final AtomicLong sequence = new AtomicLong();
    /** The sequence number of the last emptying: answers asked for before it are not kept. */
    private volatile long clearedAt;
    /**
     * The sequence number of the last eviction of what was known of a name: an answer asked for before it is not kept
     * for a name of which nothing is known (its mark may have been the one evicted).
     */
    private volatile long evictedAt;

    private final LongAdder staleRefused = new LongAdder();

    /**
     * What this frontend knows of a name since {@code revision}: the file it stands for, or (null) only that it changed
     * then, its content not yet seen.
     */
    private record Known(long revision, KeptFile file) {}

    /** A file's name in its book. */
    private record Name(long bookId, String name) {}

    SmallFiles(FilesSettings.Memory settings, BookCache books) {
        this.maxFileSize = settings.maxFileSize().toBytes();
        this.books = books;
        this.names = Caffeine.newBuilder()
                .maximumSize(settings.maxNames())
                // A safety net only, as the book cache's time to live: announcements keep names fresh.
                .expireAfterWrite(settings.namesTtl())
                // Runs inside the eviction, before a new entry can take the name's place.
                .evictionListener((Name name, Known known, RemovalCause cause) -> evicted())
                .executor(Runnable::run)
                .recordStats()
                .build();
        this.bytes = Caffeine.newBuilder()
                .maximumWeight(settings.maxTotal().toBytes())
                .weigher((String hash, byte[] content) -> content.length)
                // Evicts on the thread that adds, not later in the common pool: the bound holds when a put returns.
                .executor(Runnable::run)
                .recordStats()
                .build();
        books.listen(this);
    }

    /** A file with its bytes, ready to be answered from memory. */
    record Kept(KeptFile file, byte[] content) {}

    /** The file a book's name stands for now, with its bytes, if both are kept; otherwise null. */
    Kept find(long bookId, String name) {
        if (!usable()) return null;
        Known known = names.getIfPresent(new Name(bookId, name));
        if (known == null || known.file() == null) return null;
        byte[] content = bytes.getIfPresent(known.file().etag());
        return content == null ? null : new Kept(known.file(), content);
    }

    /**
     * To be called before a download or registration is sent to a catalog: what it answers may then be kept with
     * {@link Filling#keep}. Null when nothing is kept (the book cache off).
     */
    Filling filling(long bookId, String name) {
        if (!books.enabled()) return null;
        // A change of the leases not yet acted on empties the cache now, so the ticket is taken after it.
        books.leased();
        return new Filling(bookId, name, sequence.get());
    }

    /** A download or registration under way whose answer may be kept. */
    final class Filling {

        private final long bookId;
        private final String name;
        private final long ticket;

        private Filling(long bookId, String name, long ticket) {
            this.bookId = bookId;
            this.name = name;
            this.ticket = ticket;
        }

        /** The largest body worth capturing. */
        long maxFileSize() {
            return maxFileSize;
        }

        /**
         * Keeps a whole file, the name's content at {@code revision}, if the bytes are the content its ETag names and
         * nothing newer of the name was announced.
         */
        void keep(KeptFile file, long revision, byte[] content) {
            if (content.length != file.size() || content.length > maxFileSize) return;
            if (!sha256(content).equalsIgnoreCase(file.hash())) return;
            bytes.asMap().putIfAbsent(file.etag(), content);
            if (!usable()) return;
            boolean[] stored = {false};
            names.asMap().compute(new Name(bookId, name), (n, known) -> {
                // Inside the name's lock: an emptying marks clearedAt before it drops the names, an eviction as it
                // drops one.
                if (clearedAt > ticket) return known;
                if (known == null ? evictedAt > ticket : known.revision() > revision) return known;
                stored[0] = true;
                return known != null && known.revision() == revision && known.file() != null
                        ? known
                        : new Known(revision, file);
            });
            if (!stored[0]) staleRefused.increment();
        }
    }

    /** A registration committed: what the name stood for before {@code revision} is stale. */
    @Override
    public void fileChanged(long bookId, String name, long revision) {
        if (!books.enabled()) return;
        names.asMap()
                .compute(
                        new Name(bookId, name),
                        (n, known) ->
                                known != null && known.revision() >= revision ? known : new Known(revision, null));
    }

    @Override
    public void cleared() {
        clearedAt = sequence.incrementAndGet();
        names.invalidateAll();
    }

    private void evicted() {
        evictedAt = sequence.incrementAndGet();
    }

    private boolean usable() {
        return books.enabled() && books.leased();
    }

    private static String sha256(byte[] content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
        } catch (NoSuchAlgorithmException everyJvmHasIt) {
            throw new IllegalStateException(everyJvmHasIt);
        }
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        CaffeineCacheMetrics.monitor(registry, bytes, "files.bytes");
        CaffeineCacheMetrics.monitor(registry, names, "files.names");
        FunctionCounter.builder("agora.cache.stale.puts.refused", staleRefused, LongAdder::sum)
                .description("Fetched answers not stored because an invalidation raced with them")
                .tag("cache", "files.names")
                .register(registry);
    }
}
