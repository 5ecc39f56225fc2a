package dev.agora.launcher.cluster;

import dev.agora.local.cluster.OwnerOnlyFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;

/**
 * The control endpoint's credential: a random token written to {@code <data-dir>/control-token} at every start,
 * readable by its owner only. Whoever can read the data directory may already kill the cluster's processes; a web
 * page in the developer's browser cannot read it, so it cannot drive the endpoint.
 */
public final class ControlToken {

    public static final String FILE_NAME = "control-token";
    private static final SecureRandom RANDOM = new SecureRandom();

    private ControlToken() {}

    /** A new token, written (owner-only) before anything listens; the previous start's token stops working. */
    static String create(Path dataDirectory) {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        Path file = dataDirectory.resolve(FILE_NAME);
        try {
            OwnerOnlyFiles.write(file, token + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("Could not write the control token " + file, e);
        }
        return token;
    }

    /** The token of the cluster whose data directory this is; empty when it has none (never started, or older). */
    public static Optional<String> read(Path dataDirectory) {
        Path file = dataDirectory.resolve(FILE_NAME);
        if (!Files.isRegularFile(file)) return Optional.empty();
        try {
            return Optional.of(Files.readString(file).strip()).filter(token -> !token.isEmpty());
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read the control token " + file, e);
        }
    }
}
