package dev.agora.catalog.files;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * Blobs as files under {@code <directory>/blobs/<first two hex digits>/<hash>}. A staged file (already fsync'd) is
 * renamed into place atomically and the directory fsync'd, so a blob is either absent or complete, also across a
 * crash. The staging area is a sibling folder on the same file system, which keeps the rename atomic.
 */
final class LocalBlobStore implements BlobStore {

    private final Path blobs;

    LocalBlobStore(Path directory) {
        this.blobs = directory.resolve("blobs");
    }

    @Override
    public boolean shared() {
        return false;
    }

    @Override
    public boolean has(String hash) {
        return Files.isRegularFile(path(hash));
    }

    @Override
    public void keep(String hash, Path staged, long size) throws IOException {
        Path target = path(hash);
        if (Files.isRegularFile(target)) return;
        Files.createDirectories(target.getParent());
        try {
            Files.move(staged, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException raced) {
            // Another upload of the same content won the rename: its blob is the same bytes.
            if (!Files.isRegularFile(target)) throw raced;
            return;
        }
        syncDirectory(target.getParent());
    }

    @Override
    public Optional<Path> localFile(String hash) {
        Path path = path(hash);
        return Files.isRegularFile(path) ? Optional.of(path) : Optional.empty();
    }

    @Override
    public InputStream open(String hash, long first, long last) throws IOException {
        FileChannel channel = FileChannel.open(path(hash), StandardOpenOption.READ);
        channel.position(first);
        return new BoundedInputStream(Channels.newInputStream(channel), last - first + 1);
    }

    private Path path(String hash) {
        return blobs.resolve(hash.substring(0, 2)).resolve(hash);
    }

    /** Makes a rename in the directory durable (POSIX: the directory's entry is data of the directory). */
    static void syncDirectory(Path directory) throws IOException {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException notSupported) {
            // Some file systems refuse to open a directory for syncing; their renames are as durable as they get.
        }
    }
}
