package dev.agora.frontend.files;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Streamed transfers of book files between the frontend and the catalog nodes ({@code agora.files} in
 * application.yml).
 *
 * @param readTimeout longest wait for one read from a node (not for a whole transfer, which may take minutes)
 * @param maxConnections pooled connections to each node: transfers at once per node; one more waits for a connection
 * @param poolWait how long a transfer waits for a pooled connection when all are busy before it is refused with 503
 * @param memory the small files this frontend keeps in memory ({@link SmallFiles})
 */
@ConfigurationProperties("agora.files")
record FilesSettings(
        Duration connectTimeout, Duration readTimeout, int maxConnections, Duration poolWait, Memory memory) {

    FilesSettings {
        if (poolWait == null) poolWait = Duration.ofSeconds(1);
        if (memory == null) memory = new Memory(true, null, null, 0, null);
    }

    /**
     * @param enabled whether downloads of small files are answered from memory once seen (off: every download
     *     reaches a catalog, as the experiments comparing catalog layouts need)
     * @param maxFileSize the largest file kept; larger ones always stream from a catalog
     * @param maxTotal the bytes kept at most, all files together (least used go first)
     * @param maxNames the names remembered at most, all books together (name to content), each a few hundred bytes:
     *     announcements of registrations add names as downloads and uploads do, so the bound is on all of them
     * @param namesTtl how long a name's content is remembered after it was learnt: a safety net only, like the book
     *     cache's time to live (announcements keep names fresh); long enough that files registered through this
     *     frontend are still known when they are first downloaded
     */
    record Memory(boolean enabled, DataSize maxFileSize, DataSize maxTotal, int maxNames, Duration namesTtl) {

        Memory {
            if (maxFileSize == null) maxFileSize = DataSize.ofKilobytes(64);
            if (maxTotal == null) maxTotal = DataSize.ofMegabytes(64);
            if (maxNames <= 0) maxNames = 100_000;
            if (namesTtl == null) namesTtl = Duration.ofMinutes(10);
        }
    }
}
