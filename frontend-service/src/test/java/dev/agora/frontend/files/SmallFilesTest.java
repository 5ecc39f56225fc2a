package dev.agora.frontend.files;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.frontend.book.BookCache;
import dev.agora.frontend.book.CacheSettings;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

/**
 * The freshness rules of the small files kept in memory, on a real {@link BookCache}: a name is served only from what
 * a download asked for after the book's last change; bytes are kept only when they are the content their hash names;
 * the memory holds at most its bytes.
 */
class SmallFilesTest {

    private final BookCache books = new BookCache(new CacheSettings(true, 100, 100, Duration.ofMinutes(1)));
    private final SmallFiles files = smallFiles(DataSize.ofKilobytes(64), DataSize.ofMegabytes(1));

    @Test
    void aDownloadsAnswerIsServedByNameThereafter() {
        byte[] content = bytes("first");
        files.filling(1, "a.txt").keep(file(content), content);
        SmallFiles.Kept kept = files.find(1, "a.txt");
        assertThat(kept).isNotNull();
        assertThat(kept.content()).isEqualTo(content);
        assertThat(files.find(1, "b.txt")).isNull();
        assertThat(files.find(2, "a.txt")).isNull();
    }

    @Test
    void anAnswerAskedForBeforeTheBooksChangeIsNeverServedByName() {
        byte[] old = bytes("old");
        SmallFiles.Filling before = files.filling(1, "a.txt");
        // The name gets new content while the old answer is on its way: the catalog announces the change.
        books.invalidate(1, 2, false);
        before.keep(file(old), old);
        assertThat(files.find(1, "a.txt")).isNull();

        byte[] fresh = bytes("new");
        files.filling(1, "a.txt").keep(file(fresh), fresh);
        assertThat(files.find(1, "a.txt").content()).isEqualTo(fresh);
        books.invalidate(1, 3, false);
        assertThat(files.find(1, "a.txt"))
                .as("every change of the book drops its names")
                .isNull();
    }

    @Test
    void bytesThatAreNotTheContentTheirHashNamesAreNotKept() {
        byte[] content = bytes("genuine");
        files.filling(1, "a.txt").keep(file(content), bytes("tampered"));
        assertThat(files.find(1, "a.txt")).isNull();
    }

    @Test
    void filesAboveTheSizeLimitAreNotKeptAndTheTotalIsBoundedByBytes() {
        SmallFiles small = smallFiles(DataSize.ofBytes(1000), DataSize.ofBytes(3000));
        byte[] large = new byte[1001];
        small.filling(1, "large").keep(file(large), large);
        assertThat(small.find(1, "large")).isNull();
        for (int i = 0; i < 10; i++) {
            byte[] content = bytes("x".repeat(900) + i);
            small.filling(1, "f" + i).keep(file(content), content);
        }
        int kept = 0;
        for (int i = 0; i < 10; i++) if (small.find(1, "f" + i) != null) kept++;
        assertThat(kept).isBetween(1, 3);
    }

    @Test
    void invalidationsRacingWithFillsNeverLeaveAnOlderContentServed() throws Exception {
        // One thread keeps giving the name new content: it publishes the version (the catalog commits), then
        // announces the change (the invalidation). Fillers take their filling, then read the version (ask the
        // catalog), then keep what they read. Once the last change is announced and every filler is done, the name
        // may be unknown or stand for the last content, never for an older one.
        AtomicInteger version = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        Thread writer = Thread.ofPlatform().start(() -> {
            await(go);
            for (int v = 1; v <= 3000; v++) {
                version.set(v);
                books.invalidate(1, v, false);
            }
        });
        java.util.List<Thread> fillers = new java.util.ArrayList<>();
        for (int t = 0; t < 3; t++) {
            fillers.add(Thread.ofPlatform().start(() -> {
                await(go);
                while (writer.isAlive()) {
                    SmallFiles.Filling filling = files.filling(1, "a.txt");
                    byte[] content = bytes("v" + version.get());
                    filling.keep(file(content), content);
                }
            }));
        }
        go.countDown();
        writer.join();
        for (Thread filler : fillers) filler.join();

        SmallFiles.Kept kept = files.find(1, "a.txt");
        if (kept != null) assertThat(kept.content()).isEqualTo(bytes("v3000"));
        byte[] last = bytes("v3000");
        files.filling(1, "a.txt").keep(file(last), last);
        assertThat(files.find(1, "a.txt").content()).isEqualTo(last);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private SmallFiles smallFiles(DataSize maxFileSize, DataSize maxTotal) {
        return new SmallFiles(new FilesSettings.Memory(true, maxFileSize, maxTotal, 1000), books.side("test"));
    }

    private static KeptFile file(byte[] content) {
        return new KeptFile(
                "\"" + sha256(content) + "\"",
                content.length,
                "text/plain",
                null,
                "attachment; filename=\"a.txt\"",
                "no-cache");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String sha256(byte[] content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
