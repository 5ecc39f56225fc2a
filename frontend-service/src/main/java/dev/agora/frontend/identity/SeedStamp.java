package dev.agora.frontend.identity;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the last seeding left, so that a start with the same seed file, the same service secrets and the same stored
 * identities seeds nothing: seeding hashes every client secret again and checks every seeded password (about a dozen
 * BCrypt hashes, seconds of CPU in a fresh JVM, on the first frontend's way to ready), though nothing changed. The
 * stamp is a SHA-256 over what seeding reads of the seed file, the service clients' secrets and what the identity database holds
 * for every seeded user and client (password and secret hashes, roles, settings), written owner-only beside the
 * seed file, which holds those secrets in plain text already; the database keeps BCrypt hashes only. A changed
 * file, a rotated service secret, another or a rebuilt database, or an identity changed since (a new password hash,
 * other roles) gives another digest, and seeding runs as before.
 */
final class SeedStamp {

    private static final Logger log = LoggerFactory.getLogger(SeedStamp.class);

    private final Path file;

    /** @param file where the stamp lives; null for none (every start seeds) */
    SeedStamp(Path file) {
        this.file = file == null || file.toString().isBlank() ? null : file;
    }

    /** Whether a stamp is kept at all; without one every start seeds, and nothing reads the stored identities. */
    boolean enabled() {
        return file != null;
    }

    /** Whether the last seeding left exactly {@code state}. */
    boolean matches(List<String> state) {
        if (file == null) return false;
        try {
            return Files.isRegularFile(file) && Files.readString(file).strip().equals(digest(state));
        } catch (IOException e) {
            return false;
        }
    }

    /** Records {@code state} as seeded; a stamp that cannot be written only costs the next start its shortcut. */
    void record(List<String> state) {
        if (file == null) return;
        try {
            Path parent = file.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            Path temporary = Files.createTempFile(parent, file.getFileName().toString(), ".tmp");
            try {
                if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
                    Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-------"));
                }
                Files.writeString(temporary, digest(state) + "\n");
                try {
                    Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(temporary);
            }
        } catch (IOException e) {
            log.warn("Could not write the identity seed stamp {}; the next start seeds again: {}", file, e.toString());
        }
    }

    private static String digest(List<String> state) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            for (String part : state) {
                byte[] bytes = part == null ? new byte[0] : part.getBytes(StandardCharsets.UTF_8);
                // Length-prefixed, so that no two different lists give the same bytes.
                sha256.update(Integer.toString(part == null ? -1 : bytes.length).getBytes(StandardCharsets.UTF_8));
                sha256.update((byte) ':');
                sha256.update(bytes);
            }
            return HexFormat.of().formatHex(sha256.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
