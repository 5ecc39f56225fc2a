package dev.agora.catalog.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What every blob store must do, run against each real one. */
abstract class BlobStoreContract {

    @TempDir
    Path folder;

    abstract BlobStore store();

    @Test
    void aKeptBlobIsThereWholeAndInRanges() throws IOException {
        Staging staging = new Staging(folder.resolve("staging"));
        byte[] content = new byte[5 * 1024 * 1024 + 17];
        new Random(1).nextBytes(content);
        Staging.Staged staged = staging.receive(new ByteArrayInputStream(content), content.length, Long.MAX_VALUE);
        assertThat(store().has(staged.hash())).isFalse();

        store().keep(staged.hash(), staged.file(), staged.size());
        staged.close();

        assertThat(store().has(staged.hash())).isTrue();
        assertThat(read(staged.hash(), 0, content.length - 1)).isEqualTo(content);
        assertThat(read(staged.hash(), 0, 0)).isEqualTo(new byte[] {content[0]});
        assertThat(read(staged.hash(), content.length - 1, content.length - 1))
                .isEqualTo(new byte[] {content[content.length - 1]});
        assertThat(read(staged.hash(), 1000, 2_000_000)).isEqualTo(Arrays.copyOfRange(content, 1000, 2_000_001));
    }

    @Test
    void keepingTheSameContentTwiceStoresItOnce() throws IOException {
        Staging staging = new Staging(folder.resolve("staging"));
        byte[] content = "the same bytes".getBytes();
        try (Staging.Staged first = staging.receive(new ByteArrayInputStream(content), -1, 100);
                Staging.Staged second = staging.receive(new ByteArrayInputStream(content), -1, 100)) {
            assertThat(second.hash()).isEqualTo(first.hash());
            store().keep(first.hash(), first.file(), first.size());
            store().keep(second.hash(), second.file(), second.size());
            assertThat(read(first.hash(), 0, content.length - 1)).isEqualTo(content);
        }
        try (var left = Files.list(folder.resolve("staging"))) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void aBodyShorterThanDeclaredOrLongerThanAllowedLeavesNothingStaged() {
        Staging staging;
        try {
            staging = new Staging(folder.resolve("staging"));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        byte[] content = new byte[1000];
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> staging.receive(new ByteArrayInputStream(content), 2000, 10_000))
                .isInstanceOf(Staging.Incomplete.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> staging.receive(new ByteArrayInputStream(content), -1, 999))
                .isInstanceOf(Staging.Incomplete.class);
        assertThat(folder.resolve("staging").toFile().list()).isEmpty();
    }

    private byte[] read(String hash, long first, long last) throws IOException {
        try (InputStream in = store().open(hash, first, last)) {
            return in.readAllBytes();
        }
    }
}
