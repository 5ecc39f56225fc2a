package dev.agora.frontend.files;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.agora.frontend.book.BookSideCache;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The bytes of small book files kept in this frontend's memory, so a download of content seen before never reaches a
 * catalog. Two steps, with different freshness rules:
 *
 * <ul>
 *   <li><b>name to content</b> ({@code (book, name)} to {@link KeptFile}) can change: a name may be given new
 *       content or deleted. It is kept per book in a {@link BookSideCache}, under the book cache's leases and dropped
 *       with every invalidation of the book, like the book's list of files.
 *   <li><b>content to bytes</b> (the SHA-256 to the bytes) never changes: files are content-addressed. It is a
 *       Caffeine cache bounded by bytes (its weigher), the least used going first.
 * </ul>
 *
 * <p>Both are filled by a download that passed through from a catalog ({@link #filling}); the bytes are checked
 * against their hash before they are kept. A name learnt while a change of its book was under way is never served:
 * the filling takes the book's map of names before the catalog is asked, and an invalidation arriving later drops
 * that map whole (so what is put in it afterwards is lost with it), while a map created after the invalidation is
 * only filled from answers asked for after it.
 */
final class SmallFiles implements MeterBinder {

    private final boolean enabled;
    private final long maxFileSize;
    private final int maxNamesPerBook;
    private final BookSideCache<Cache<String, KeptFile>> names;
    private final Cache<String, byte[]> bytes;

    SmallFiles(FilesSettings.Memory settings, BookSideCache<Cache<String, KeptFile>> names) {
        this.enabled = settings.enabled();
        this.maxFileSize = settings.maxFileSize().toBytes();
        this.maxNamesPerBook = settings.maxNamesPerBook();
        this.names = names;
        this.bytes = Caffeine.newBuilder()
                .maximumWeight(settings.maxTotal().toBytes())
                .weigher((String hash, byte[] content) -> content.length)
                // Evicts on the thread that adds, not later in the common pool: the bound holds when a put returns.
                .executor(Runnable::run)
                .recordStats()
                .build();
    }

    /** A file with its bytes, ready to be answered from memory. */
    record Kept(KeptFile file, byte[] content) {}

    /** The file a book's name stands for now, with its bytes, if both are kept; otherwise null. */
    Kept find(long bookId, String name) {
        if (!enabled) return null;
        Cache<String, KeptFile> ofBook = names.cached(bookId);
        if (ofBook == null) return null;
        KeptFile file = ofBook.getIfPresent(name);
        if (file == null) return null;
        byte[] content = bytes.getIfPresent(file.etag());
        return content == null ? null : new Kept(file, content);
    }

    /**
     * To be called before a download is asked of a catalog: what it answers may then be kept with
     * {@link Filling#keep}. Null when nothing is kept (memory off).
     */
    Filling filling(long bookId, String name) {
        if (!enabled) return null;
        Cache<String, KeptFile> ofBook = names.cached(bookId);
        if (ofBook == null) {
            long ticket = names.ticket();
            ofBook = Caffeine.newBuilder().maximumSize(maxNamesPerBook).build();
            // Refused while the leases do not hold: then the names are kept nowhere and every download asks a catalog.
            if (!names.offer(bookId, ofBook, ticket)) ofBook = names.cached(bookId);
        }
        return new Filling(ofBook, name);
    }

    /** A download under way from a catalog whose answer may be kept. */
    final class Filling {

        private final Cache<String, KeptFile> ofBook;
        private final String name;

        private Filling(Cache<String, KeptFile> ofBook, String name) {
            this.ofBook = ofBook;
            this.name = name;
        }

        /** The largest body worth capturing. */
        long maxFileSize() {
            return maxFileSize;
        }

        /** Keeps a whole body (a 200 answer, read to its end) if it is the content its ETag names. */
        void keep(KeptFile file, byte[] content) {
            if (content.length != file.size() || content.length > maxFileSize) return;
            if (!sha256(content).equalsIgnoreCase(file.hash())) return;
            bytes.asMap().putIfAbsent(file.etag(), content);
            if (ofBook != null) ofBook.put(name, file);
        }
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
    }
}
