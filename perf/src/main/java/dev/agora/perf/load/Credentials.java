package dev.agora.perf.load;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * The demo credentials of a local cluster, as the launcher writes them to {@code
 * <data-dir>/demo-credentials.properties} (SECURITY.md): for each demo user ({@code admin}, {@code trader}, {@code
 * customer}) the id and secret of an OAuth2 client acting for that user, and the token endpoint of the first
 * frontend. The frontends read the same file ({@code AGORA_IDENTITY_SEED_FILE}) and create those users and clients.
 *
 * @param tokenUrl {@code POST} here with HTTP Basic {@code client-id:client-secret} and {@code
 *     grant_type=client_credentials}
 */
public record Credentials(Client admin, Client trader, Client customer, URI tokenUrl) {

    public static final String FILE_NAME = "demo-credentials.properties";

    /** The keys of the file, in the order the launcher writes them; the file holds exactly these. */
    public static final List<String> KEYS = List.of(
            "admin.client-id",
            "admin.client-secret",
            "trader.client-id",
            "trader.client-secret",
            "customer.client-id",
            "customer.client-secret",
            "token-url");

    private static final int SECRET_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    /** An OAuth2 client that acts for one demo user. */
    public record Client(String id, String secret) {
        public Client {
            if (id == null || id.isBlank()) throw new IllegalArgumentException("client id missing");
            if (secret == null || secret.isBlank()) throw new IllegalArgumentException("client secret missing");
        }

        @Override
        public String toString() {
            return "Client[" + id + "]"; // never the secret, e.g. in a failed assertion or a log line
        }
    }

    public Credentials {
        if (admin == null || trader == null || customer == null || tokenUrl == null) {
            throw new IllegalArgumentException("incomplete credentials");
        }
    }

    /** New clients {@code demo-admin}, {@code demo-trader}, {@code demo-customer}, each with a random secret. */
    public static Credentials generate(URI tokenUrl) {
        return new Credentials(
                new Client("demo-admin", randomSecret()),
                new Client("demo-trader", randomSecret()),
                new Client("demo-customer", randomSecret()),
                tokenUrl);
    }

    /** 32 random bytes, base64url without padding: no character a properties file, a shell or a URL escapes. */
    static String randomSecret() {
        byte[] bytes = new byte[SECRET_BYTES];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** The token endpoint of a frontend at {@code baseUrl}, e.g. {@code http://127.0.0.1:8080}. */
    public static URI tokenUrlOf(String baseUrl) {
        return URI.create(baseUrl + "/oauth2/token");
    }

    public static Credentials read(Path file) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot read the demo credentials " + file + " (a cluster's <data-dir>/" + FILE_NAME
                            + ", written when it starts)",
                    e);
        }
        List<String> missing = KEYS.stream()
                .filter(key -> isBlank(properties.getProperty(key)))
                .toList();
        if (!missing.isEmpty()) throw new IllegalArgumentException(file + " lacks " + missing);
        return new Credentials(
                client(properties, "admin"),
                client(properties, "trader"),
                client(properties, "customer"),
                URI.create(properties.getProperty("token-url").trim()));
    }

    /**
     * The credentials a cluster starting at {@code file} uses: the file's clients when it has them (a restarted
     * cluster keeps the secrets scripts already hold), new ones otherwise, and always the given token endpoint
     * (a restart on other ports moves it). Writes the file when anything changed.
     */
    public static Credentials ensure(Path file, URI tokenUrl) {
        Credentials wanted;
        if (Files.isRegularFile(file)) {
            Credentials kept;
            try {
                kept = read(file);
            } catch (IllegalArgumentException incomplete) {
                kept = null; // a damaged file is replaced: the frontends seed whatever it says next
            }
            if (kept != null && kept.tokenUrl().equals(tokenUrl)) return kept;
            wanted = kept == null ? generate(tokenUrl) : kept.withTokenUrl(tokenUrl);
        } else {
            wanted = generate(tokenUrl);
        }
        wanted.write(file);
        return wanted;
    }

    public Credentials withTokenUrl(URI url) {
        return new Credentials(admin, trader, customer, url);
    }

    /** Writes (or replaces) the file, readable by its owner only where the file system has POSIX permissions. */
    public void write(Path file) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            try {
                // Created with its final permissions, so the secrets are never readable by others, not even briefly.
                Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            } catch (UnsupportedOperationException noPosix) {
                Files.deleteIfExists(file);
                Files.createFile(file);
            } catch (FileAlreadyExistsException exists) {
                ownerOnly(file);
            }
            Files.writeString(
                    file,
                    text(),
                    StandardCharsets.UTF_8,
                    StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the demo credentials " + file, e);
        }
    }

    /** The seven keys in order (no date comment, unlike {@link Properties#store}: a rewrite changes nothing else). */
    String text() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("admin.client-id", admin.id());
        values.put("admin.client-secret", admin.secret());
        values.put("trader.client-id", trader.id());
        values.put("trader.client-secret", trader.secret());
        values.put("customer.client-id", customer.id());
        values.put("customer.client-secret", customer.secret());
        values.put("token-url", tokenUrl.toString());
        StringBuilder text = new StringBuilder(
                "# Demo users of a local Agora cluster (SECURITY.md). Get a token: POST token-url with HTTP Basic\n"
                        + "# <role>.client-id:<role>.client-secret and the form body grant_type=client_credentials.\n");
        values.forEach((key, value) ->
                text.append(key).append('=').append(escape(value)).append('\n'));
        return text.toString();
    }

    private static void ownerOnly(Path file) throws IOException {
        try {
            Files.setPosixFilePermissions(file, OWNER_ONLY);
        } catch (UnsupportedOperationException noPosix) {
            // e.g. Windows: the file inherits its directory's access rules
        }
    }

    private static Client client(Properties properties, String user) {
        return new Client(
                properties.getProperty(user + ".client-id").trim(),
                properties.getProperty(user + ".client-secret").trim());
    }

    private static boolean isBlank(String value) {
        return value == null || value.isBlank();
    }

    /**
     * A value as a properties file line holds it: only a backslash needs escaping after the separator ({@code :} and
     * {@code =} in a URL are fine), so {@code grep ^key= file | cut -d= -f2} reads what was written.
     */
    private static String escape(String value) {
        if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("a credential holds a line break");
        }
        return value.replace("\\", "\\\\");
    }

    @Override
    public String toString() {
        return "Credentials[" + admin + ", " + trader + ", " + customer + ", " + tokenUrl + "]";
    }
}
