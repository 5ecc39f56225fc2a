package dev.agora.local.cluster;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;

/** Secrets a local cluster keeps in its data directory (a password, a token), written for their owner's eyes only. */
public final class OwnerOnlyFiles {

    private OwnerOnlyFiles() {}

    /**
     * Writes {@code text} to {@code file}, replacing it: into a file beside it created readable by its owner only
     * (where the file system has POSIX permissions), then moved over it in one step, so that no reader ever finds it
     * half written or readable by others.
     */
    public static void write(Path file, String text) throws IOException {
        Path directory = file.toAbsolutePath().getParent();
        Files.createDirectories(directory);
        FileAttribute<?>[] ownerOnly =
                FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
                        ? new FileAttribute<?>[] {
                            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))
                        }
                        : new FileAttribute<?>[0];
        Path temporary = Files.createTempFile(directory, file.getFileName().toString(), ".tmp", ownerOnly);
        try {
            Files.writeString(temporary, text);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }
}
