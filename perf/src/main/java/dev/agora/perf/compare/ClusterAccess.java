package dev.agora.perf.compare;

import dev.agora.launcher.credentials.AccessTokens;
import dev.agora.launcher.credentials.Credentials;
import dev.agora.perf.load.Bookstore;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * What a cluster's {@code <data-dir>/demo-credentials.properties} grants, read leniently because the two clusters
 * of a comparison come from different commits: this tree writes every key ({@link Credentials#KEYS}); an older
 * one may write fewer (e.g. no passwords, no admin client) or no file at all (before issue 28 buys and admin calls
 * needed no token). A client is there when its id and secret are, and a token endpoint is given; half a client (an
 * id without its secret) is a damaged file and refused.
 *
 * @param customer the client whose token buys carry; empty: buys go without a token
 * @param admin the client whose token restocks carry; empty: this cluster's stock cannot be topped up
 */
public record ClusterAccess(
        Optional<URI> tokenUrl, Optional<Credentials.Client> customer, Optional<Credentials.Client> admin) {

    /** An open-door cluster: no tokens anywhere. */
    public static final ClusterAccess OPEN_DOOR =
            new ClusterAccess(Optional.empty(), Optional.empty(), Optional.empty());

    public ClusterAccess {
        if ((customer.isPresent() || admin.isPresent()) && tokenUrl.isEmpty()) {
            throw new IllegalArgumentException("clients without a token-url");
        }
    }

    /** The file's clients; {@link #OPEN_DOOR} when there is no file. */
    public static ClusterAccess read(Path file) {
        if (!Files.isRegularFile(file)) return OPEN_DOOR;
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
        Optional<Credentials.Client> customer = client(properties, "customer", file);
        Optional<Credentials.Client> admin = client(properties, "admin", file);
        Optional<URI> tokenUrl = value(properties, "token-url").map(URI::create);
        if ((customer.isPresent() || admin.isPresent()) && tokenUrl.isEmpty()) {
            throw new IllegalArgumentException(file + " names clients but no token-url");
        }
        return new ClusterAccess(tokenUrl, customer, admin);
    }

    public boolean buysNeedToken() {
        return customer.isPresent();
    }

    /**
     * Whether this cluster's stock can be topped up: with its admin client's token, or, on the open door, with the
     * static admin token its catalog took then ({@link Bookstore#restock}).
     */
    public boolean canRestock() {
        return admin.isPresent() || equals(OPEN_DOOR);
    }

    /** Tokens of the clients this cluster has (none for an open door); the caller closes them. */
    public AccessTokens tokens() {
        Map<AccessTokens.User, Credentials.Client> clients = new EnumMap<>(AccessTokens.User.class);
        customer.ifPresent(client -> clients.put(AccessTokens.User.CUSTOMER, client));
        admin.ifPresent(client -> clients.put(AccessTokens.User.ADMIN, client));
        return AccessTokens.forClients(tokenUrl.orElse(URI.create("http://127.0.0.1/")), clients);
    }

    /** "customer and admin tokens", "customer token only", "no tokens (open door)": for the report. */
    public String describe() {
        if (customer.isPresent() && admin.isPresent()) return "customer and admin clients";
        if (customer.isPresent()) return "customer client only (no restock)";
        if (admin.isPresent()) return "admin client only (buys without a token)";
        return "no credentials (open door: buys without a token, restocked with its static dev admin token)";
    }

    private static Optional<Credentials.Client> client(Properties properties, String user, Path file) {
        Optional<String> id = value(properties, user + ".client-id");
        Optional<String> secret = value(properties, user + ".client-secret");
        if (id.isPresent() != secret.isPresent()) {
            throw new IllegalArgumentException(file + " has " + user
                    + (id.isPresent() ? ".client-id without its secret" : ".client-secret without its id"));
        }
        return id.map(value -> new Credentials.Client(value, secret.orElseThrow()));
    }

    private static Optional<String> value(Properties properties, String key) {
        String value = properties.getProperty(key);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
    }
}
