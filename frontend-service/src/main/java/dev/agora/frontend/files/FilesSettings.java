package dev.agora.frontend.files;

import java.time.Duration;
import org.springframework.util.unit.DataSize;

/**
 * Streamed transfers of book files between the frontend and the catalog nodes, and the small files kept in memory:
 * bounds with their reasons, no settings. Whether small files are kept at all follows the book cache's switch
 * ({@code agora.cache.enabled}): the files' memory answers only under the catalogs' leases the book cache holds, and
 * the experiments that turn one off measure the catalogs behind both.
 *
 * @param memory the small files this frontend keeps in memory ({@link SmallFiles})
 */
record FilesSettings(Memory memory) {

    FilesSettings() {
        this(new Memory());
    }

    /** Connecting to a catalog node on the same network takes milliseconds; one that does not answer is given up. */
    Duration connectTimeout() {
        return Duration.ofMillis(500);
    }

    /**
     * Longest wait for one read from a node (not for a whole transfer, which may take minutes): a node that stops
     * sending for this long is given up for another holder of the file, resumed from the byte reached.
     */
    Duration readTimeout() {
        return Duration.ofSeconds(30);
    }

    /** Transfers at once to each catalog node: one more waits for a connection (bounded memory and sockets). */
    int maxConnections() {
        return 64;
    }

    /** How long a transfer waits for a pooled connection when all are busy before it is refused with 503. */
    Duration poolWait() {
        return Duration.ofSeconds(1);
    }

    /**
     * @param maxFileSize the largest file kept (64 KB); larger ones always stream from a catalog
     * @param maxTotal the bytes kept at most (64 MB), all files together (least used go first)
     * @param maxNames the names remembered at most (100,000), all books together (name to content), each a few
     *     hundred bytes: announcements of registrations add names as downloads and uploads do, so the bound is on all
     *     of them
     * @param namesTtl how long a name's content is remembered after it was learnt (10 minutes): a safety net only,
     *     like the book cache's time to live (announcements keep names fresh); long enough that files registered
     *     through this frontend are still known when they are first downloaded
     */
    record Memory(DataSize maxFileSize, DataSize maxTotal, int maxNames, Duration namesTtl) {

        Memory() {
            this(DataSize.ofKilobytes(64), DataSize.ofMegabytes(64), 100_000, Duration.ofMinutes(10));
        }
    }
}
