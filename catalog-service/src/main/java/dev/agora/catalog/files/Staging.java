package dev.agora.catalog.files;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.stream.Stream;

/**
 * Receives an upload into a private file of the staging folder while computing its SHA-256, one 64 KB buffer at a
 * time (a 1 GB upload costs no more heap than a 1 KB one). The file is fsync'd before it is handed on, and deleted
 * when the upload does not complete: a cut-off upload leaves nothing.
 */
final class Staging {

    static final int BUFFER = 64 * 1024;

    private final Path folder;

    Staging(Path folder) throws IOException {
        this.folder = Files.createDirectories(folder);
        // Leftovers of uploads that a crash interrupted: nothing refers to them.
        try (Stream<Path> leftovers = Files.list(folder)) {
            for (Path leftover : leftovers.toList()) Files.deleteIfExists(leftover);
        }
    }

    /** A complete upload: its hash, its length and the staged file, deleted on close unless moved away. */
    record Staged(String hash, long size, Path file) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            Files.deleteIfExists(file);
        }
    }

    /** The body ended before its declared length or went past the largest size allowed. */
    static final class Incomplete extends IOException {
        Incomplete(String message) {
            super(message);
        }
    }

    /**
     * @param declaredLength the request's Content-Length, or -1 when it is sent in chunks
     * @param maxSize longest body accepted
     */
    Staged receive(InputStream body, long declaredLength, long maxSize) throws IOException {
        Path file = Files.createTempFile(folder, "upload-", ".part");
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE)) {
            MessageDigest sha256 = sha256();
            byte[] buffer = new byte[BUFFER];
            long size = 0;
            for (int read; (read = body.read(buffer)) >= 0; ) {
                size += read;
                if (size > maxSize) throw new Incomplete("The file is larger than " + maxSize + " bytes");
                sha256.update(buffer, 0, read);
                ByteBuffer chunk = ByteBuffer.wrap(buffer, 0, read);
                while (chunk.hasRemaining()) out.write(chunk);
            }
            if (declaredLength >= 0 && size != declaredLength) {
                throw new Incomplete("The body ended after " + size + " of " + declaredLength + " bytes");
            }
            out.force(true);
            return new Staged(HexFormat.of().formatHex(sha256.digest()), size, file);
        } catch (IOException | RuntimeException | Error failed) {
            Files.deleteIfExists(file);
            throw failed;
        }
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
