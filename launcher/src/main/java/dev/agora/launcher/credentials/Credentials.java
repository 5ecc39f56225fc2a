package dev.agora.launcher.credentials;

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
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * The demo credentials of a local cluster, as the launcher writes them to {@code
 * <data-dir>/demo-credentials.properties} (SECURITY.md): for each demo user ({@code admin}, {@code trader}, {@code
 * customer}) the id and secret of an OAuth2 client acting for that user, the token endpoint of the first frontend,
 * and for those three and {@code publisher} the password a person signs in with on the web pages. The frontends read
 * the same file ({@code AGORA_IDENTITY_SEED_FILE}) and create those users, clients and passwords.
 *
 * @param tokenUrl {@code POST} here with HTTP Basic {@code client-id:client-secret} and {@code
 *     grant_type=client_credentials}
 * @param passwords each of {@link #PEOPLE}'s web sign-in password, in that order
 */
public record Credentials(Client admin, Client trader, Client customer, URI tokenUrl, Map<String, String> passwords) {

    public static final String FILE_NAME = "demo-credentials.properties";

    /** The keys of the file, in the order the launcher writes them; the file holds exactly these. */
    public static final List<String> KEYS = List.of(
            "admin.client-id",
            "admin.client-secret",
            "trader.client-id",
            "trader.client-secret",
            "customer.client-id",
            "customer.client-secret",
            "token-url",
            "admin.password",
            "trader.password",
            "customer.password",
            "publisher.password");

    /** The demo users who sign in on the web pages (http://localhost:8080/) with {@code <user>.password}. */
    public static final List<String> PEOPLE = List.of("admin", "trader", "customer", "publisher");

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
        if (admin == null || trader == null || customer == null || tokenUrl == null || passwords == null) {
            throw new IllegalArgumentException("incomplete credentials");
        }
        if (!passwords.keySet().equals(Set.copyOf(PEOPLE))
                || passwords.values().stream().anyMatch(Credentials::isBlank)) {
            throw new IllegalArgumentException("a password for each of " + PEOPLE + " is needed");
        }
        Map<String, String> ordered = new LinkedHashMap<>();
        for (String person : PEOPLE) ordered.put(person, passwords.get(person));
        passwords = Collections.unmodifiableMap(ordered);
    }

    /** New clients {@code demo-admin}, {@code demo-trader}, {@code demo-customer}, each with a random secret. */
    public static Credentials generate(URI tokenUrl) {
        return new Credentials(
                new Client("demo-admin", randomSecret()),
                new Client("demo-trader", randomSecret()),
                new Client("demo-customer", randomSecret()),
                tokenUrl,
                randomPasswords());
    }

    private static Map<String, String> randomPasswords() {
        Map<String, String> passwords = new LinkedHashMap<>();
        for (String person : PEOPLE) passwords.put(person, randomSecret());
        return passwords;
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
        return clientsOf(properties).withPasswords(passwordsOf(properties));
    }

    /**
     * The clients and token endpoint of a file, with its passwords or new ones for those it lacks: a file from before
     * the web pages had passwords keeps its clients.
     */
    private static Credentials readKeepingClients(Path file) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            return null;
        }
        if (KEYS.stream()
                .filter(key -> !key.endsWith(".password"))
                .anyMatch(key -> isBlank(properties.getProperty(key)))) {
            return null;
        }
        Map<String, String> passwords = passwordsOf(properties);
        Map<String, String> complete = randomPasswords();
        passwords.forEach((person, password) -> {
            if (!isBlank(password)) complete.put(person, password);
        });
        return clientsOf(properties).withPasswords(complete);
    }

    private static Credentials clientsOf(Properties properties) {
        return new Credentials(
                client(properties, "admin"),
                client(properties, "trader"),
                client(properties, "customer"),
                URI.create(properties.getProperty("token-url").trim()),
                randomPasswords());
    }

    private static Map<String, String> passwordsOf(Properties properties) {
        Map<String, String> passwords = new LinkedHashMap<>();
        for (String person : PEOPLE) {
            String password = properties.getProperty(person + ".password");
            passwords.put(person, password == null ? null : password.trim());
        }
        return passwords;
    }

    /**
     * The credentials a cluster starting at {@code file} uses: the file's clients and passwords when it has them (a
     * restarted cluster keeps the secrets scripts and people already hold), new ones otherwise (for a file written
     * before the web pages, passwords are added to its clients), and always the given token endpoint (a restart on
     * other ports moves it). Writes the file when anything changed.
     */
    public static Credentials ensure(Path file, URI tokenUrl) {
        Credentials wanted;
        if (Files.isRegularFile(file)) {
            Credentials kept;
            try {
                kept = read(file);
            } catch (IllegalArgumentException incomplete) {
                // Lacking passwords only: keep the clients; otherwise damaged, and replaced (the frontends seed
                // whatever it says next).
                kept = null;
            } catch (UncheckedIOException unreadable) {
                kept = null;
            }
            if (kept != null && kept.tokenUrl().equals(tokenUrl)) return kept;
            if (kept == null) kept = readKeepingClients(file);
            wanted = kept == null ? generate(tokenUrl) : kept.withTokenUrl(tokenUrl);
        } else {
            wanted = generate(tokenUrl);
        }
        wanted.write(file);
        return wanted;
    }

    public Credentials withTokenUrl(URI url) {
        return new Credentials(admin, trader, customer, url, passwords);
    }

    private Credentials withPasswords(Map<String, String> people) {
        return new Credentials(admin, trader, customer, tokenUrl, people);
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

    /** The keys in order (no date comment, unlike {@link Properties#store}: a rewrite changes nothing else). */
    String text() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("admin.client-id", admin.id());
        values.put("admin.client-secret", admin.secret());
        values.put("trader.client-id", trader.id());
        values.put("trader.client-secret", trader.secret());
        values.put("customer.client-id", customer.id());
        values.put("customer.client-secret", customer.secret());
        values.put("token-url", tokenUrl.toString());
        passwords.forEach((person, password) -> values.put(person + ".password", password));
        StringBuilder text = new StringBuilder(
                "# Demo users of a local Agora cluster (SECURITY.md). Get a token: POST token-url with HTTP Basic\n"
                        + "# <role>.client-id:<role>.client-secret and the form body grant_type=client_credentials.\n"
                        + "# Sign in on the web pages (a frontend's /, e.g. http://localhost:8080/) as <user> with"
                        + " <user>.password.\n");
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
        return "Credentials[" + admin + ", " + trader + ", " + customer + ", " + tokenUrl + "]"; // no passwords
    }
}
