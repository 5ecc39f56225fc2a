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
 * The freshness rules of the small files kept in memory, on a real {@link BookCache}: a name is served only at the
 * highest revision announced for it or above; bytes are kept only when they are the content their hash names; the
 * memory holds at most its bytes.
 */
class SmallFilesTest {

    private final BookCache books = new BookCache(new CacheSettings(true, 100, 100, Duration.ofMinutes(1)));
    private final SmallFiles files = smallFiles(DataSize.ofKilobytes(64), DataSize.ofMegabytes(1), 1000);

    @Test
    void aDownloadsAnswerIsServedByNameThereafter() {
        byte[] content = bytes("first");
        files.filling(1, "a.txt").keep(file(content), 1, content);
        SmallFiles.Kept kept = files.find(1, "a.txt");
        assertThat(kept).isNotNull();
        assertThat(kept.content()).isEqualTo(content);
        assertThat(files.find(1, "b.txt")).isNull();
        assertThat(files.find(2, "a.txt")).isNull();
    }

    @Test
    void anAnswerOfARevisionBelowAnAnnouncedOneIsNeverServedByName() {
        byte[] old = bytes("old");
        SmallFiles.Filling before = files.filling(1, "a.txt");
        // The name gets revision 2 while the answer of revision 1 is on its way: the catalog announces it.
        books.fileChanged(1, "a.txt", 2);
        before.keep(file(old), 1, old);
        assertThat(files.find(1, "a.txt")).isNull();

        byte[] fresh = bytes("new");
        files.filling(1, "a.txt").keep(file(fresh), 2, fresh);
        assertThat(files.find(1, "a.txt").content()).isEqualTo(fresh);
        files.filling(1, "a.txt").keep(file(old), 1, old);
        assertThat(files.find(1, "a.txt").content())
                .as("a late answer of an older revision does not replace a newer one")
                .isEqualTo(fresh);
        books.fileChanged(1, "a.txt", 3);
        assertThat(files.find(1, "a.txt"))
                .as("a newer registration drops the name")
                .isNull();
    }

    @Test
    void aRegistrationKeptAfterItsOwnAnnouncementIsServed() {
        // A registration through this frontend: the catalog announces it (revision 5) before it answers, and the
        // answer, asked for before the announcement, is then kept at that same revision.
        byte[] content = bytes("uploaded");
        SmallFiles.Filling upload = files.filling(1, "up.txt");
        books.fileChanged(1, "up.txt", 5);
        upload.keep(file(content), 5, content);
        assertThat(files.find(1, "up.txt").content()).isEqualTo(content);
    }

    @Test
    void otherNamesAndChangesOfTheBooksRowLeaveANameKept() {
        byte[] a = bytes("a");
        files.filling(1, "a.txt").keep(file(a), 1, a);
        books.fileChanged(1, "b.txt", 2);
        books.invalidate(1, 7, false);
        assertThat(files.find(1, "a.txt").content()).isEqualTo(a);
    }

    @Test
    void anAnswerAskedForBeforeTheCacheWasEmptiedIsNotKept() {
        byte[] content = bytes("before");
        SmallFiles.Filling before = files.filling(1, "a.txt");
        books.clear();
        before.keep(file(content), 1, content);
        assertThat(files.find(1, "a.txt")).isNull();
        files.filling(1, "a.txt").keep(file(content), 1, content);
        assertThat(files.find(1, "a.txt").content()).isEqualTo(content);
    }

    @Test
    void anAnswerAskedForBeforeANamesMarkWasEvictedIsNotKept() {
        SmallFiles few = smallFiles(DataSize.ofKilobytes(64), DataSize.ofMegabytes(1), 2);
        byte[] old = bytes("old");
        SmallFiles.Filling before = few.filling(1, "a.txt");
        books.fileChanged(1, "a.txt", 10);
        // More names than may be kept: the mark of a.txt's revision 10 may be pushed out.
        for (int i = 0; i < 50; i++) books.fileChanged(1, "n" + i, 11 + i);
        before.keep(file(old), 1, old);
        assertThat(few.find(1, "a.txt")).isNull();
    }

    @Test
    void theNamesKeptAreBoundedAcrossAllBooks() {
        SmallFiles few = smallFiles(DataSize.ofKilobytes(64), DataSize.ofMegabytes(1), 50);
        byte[] content = bytes("shared");
        for (int book = 1; book <= 20; book++) {
            for (int i = 0; i < 10; i++) {
                few.filling(book, "f" + i).keep(file(content), 1, content);
                books.fileChanged(book, "announced" + i, 1);
            }
        }
        int kept = 0;
        for (int book = 1; book <= 20; book++) {
            for (int i = 0; i < 10; i++) if (few.find(book, "f" + i) != null) kept++;
        }
        assertThat(kept)
                .as("of 200 names kept in 20 books, with 200 marks besides")
                .isBetween(1, 50);
    }

    @Test
    void bytesThatAreNotTheContentTheirHashNamesAreNotKept() {
        byte[] content = bytes("genuine");
        files.filling(1, "a.txt").keep(file(content), 1, bytes("tampered"));
        assertThat(files.find(1, "a.txt")).isNull();
    }

    @Test
    void filesAboveTheSizeLimitAreNotKeptAndTheTotalIsBoundedByBytes() {
        SmallFiles small = smallFiles(DataSize.ofBytes(1000), DataSize.ofBytes(3000), 1000);
        byte[] large = new byte[1001];
        small.filling(1, "large").keep(file(large), 1, large);
        assertThat(small.find(1, "large")).isNull();
        for (int i = 0; i < 10; i++) {
            byte[] content = bytes("x".repeat(900) + i);
            small.filling(1, "f" + i).keep(file(content), 1, content);
        }
        int kept = 0;
        for (int i = 0; i < 10; i++) if (small.find(1, "f" + i) != null) kept++;
        assertThat(kept).isBetween(1, 3);
    }

    @Test
    void announcementsRacingWithFillsNeverLeaveAnOlderContentServed() throws Exception {
        // One thread keeps giving the name new content: it publishes the revision (the catalog commits), then
        // announces it. Fillers take their filling, then read the revision (ask the catalog), then keep what they
        // read. Once the last change is announced and every filler is done, the name may be unknown or stand for the
        // last content, never for an older one.
        AtomicInteger revision = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        Thread writer = Thread.ofPlatform().start(() -> {
            await(go);
            for (int r = 1; r <= 3000; r++) {
                revision.set(r);
                books.fileChanged(1, "a.txt", r);
                // Other names of the same book change too, as a burst of uploads does.
                books.fileChanged(1, "other" + (r % 7), 10_000 + r);
            }
        });
        java.util.List<Thread> fillers = new java.util.ArrayList<>();
        for (int t = 0; t < 3; t++) {
            fillers.add(Thread.ofPlatform().start(() -> {
                await(go);
                while (writer.isAlive()) {
                    SmallFiles.Filling filling = files.filling(1, "a.txt");
                    int read = revision.get();
                    byte[] content = bytes("v" + read);
                    filling.keep(file(content), read, content);
                }
            }));
        }
        go.countDown();
        writer.join();
        for (Thread filler : fillers) filler.join();

        SmallFiles.Kept kept = files.find(1, "a.txt");
        if (kept != null) assertThat(kept.content()).isEqualTo(bytes("v3000"));
        byte[] last = bytes("v3000");
        files.filling(1, "a.txt").keep(file(last), 3000, last);
        assertThat(files.find(1, "a.txt").content()).isEqualTo(last);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private SmallFiles smallFiles(DataSize maxFileSize, DataSize maxTotal, int maxNames) {
        return new SmallFiles(new FilesSettings.Memory(maxFileSize, maxTotal, maxNames, Duration.ofMinutes(10)), books);
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
