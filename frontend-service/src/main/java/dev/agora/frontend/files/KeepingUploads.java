package dev.agora.frontend.files;

import dev.agora.common.limits.BoundedExecutors;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a small file uploaded through this frontend in its memory ({@link SmallFiles}) as soon as a catalog has
 * registered it, so that its first download is answered from memory like every later one: files are published to be
 * downloaded, and the first download is the one a publisher's readers wait for.
 *
 * <p>The file is read back from a catalog after the upload was answered, on a thread of its own, as a download
 * would read it ({@link Downloading#fetch}), rather than kept from the bytes that went up: the upload's answer does
 * not wait, and what is kept passed every check a download's does. The catalog decides what a name stands for (a
 * concurrent upload of the same name may win) and which headers its download carries; the name is learnt under a
 * fresh ticket of the book's leases, after this upload's own invalidation dropped the book, so a change of the
 * book afterwards drops it again; and the bytes are checked against their hash. The cost is one small read at a
 * catalog per small upload. Uploads waiting to be kept are bounded ({@link #QUEUE}); past it a file is simply not
 * kept ({@code agora.executor.rejected{name="agora.files.keep-uploads"}}) and its first download reaches a catalog.
 */
final class KeepingUploads implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KeepingUploads.class);
    static final int QUEUE = 1_000;

    private final boolean enabled;
    private final SmallFiles smallFiles;
    private final Downloading downloading;
    private final ThreadPoolExecutor reads;
    private final Counter kept;
    private final Counter notKept;

    /** @param enabled {@code agora.files.memory.keep-uploads} */
    KeepingUploads(boolean enabled, SmallFiles smallFiles, Downloading downloading, MeterRegistry meters) {
        this.enabled = enabled;
        this.smallFiles = smallFiles;
        this.downloading = downloading;
        ThreadPoolExecutor pool = new ThreadPoolExecutor(
                1,
                1,
                0,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(QUEUE),
                Thread.ofPlatform().name("files-keep-uploads").daemon().factory(),
                new ThreadPoolExecutor.DiscardPolicy());
        this.reads = BoundedExecutors.monitor(meters, pool, "agora.files.keep-uploads");
        this.kept = Counter.builder("agora.files.uploads.kept")
                .description("Small uploads read back and kept in memory, by outcome")
                .tag("outcome", "kept")
                .register(meters);
        this.notKept = Counter.builder("agora.files.uploads.kept")
                .tag("outcome", "not-kept")
                .register(meters);
    }

    /**
     * To be called once a catalog answered an upload with success.
     *
     * @param rawName the name as the client encoded it in the path
     * @param name the decoded name, or null when it does not decode (then nothing is kept)
     */
    void uploaded(long bookId, String rawName, String name, long size) {
        if (!enabled || name == null || !smallFiles.keeps(size)) return;
        reads.execute(() -> keep(bookId, rawName, name));
    }

    private void keep(long bookId, String rawName, String name) {
        SmallFiles.Filling filling = smallFiles.filling(bookId, name);
        boolean done = false;
        try {
            done = filling != null && downloading.fetch("/books/" + bookId + "/files/" + rawName, filling);
        } catch (Exception failed) {
            // Only a saving is lost: the first download will ask a catalog.
            log.debug("Book {} file {} not kept after its upload: {}", bookId, name, failed.toString());
        }
        (done ? kept : notKept).increment();
    }

    @Override
    public void close() {
        reads.shutdownNow();
    }
}
