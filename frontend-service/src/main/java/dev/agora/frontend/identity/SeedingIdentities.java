package dev.agora.frontend.identity;

import dev.agora.common.security.FailClosedSecrets;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates, at start, the service clients of the configuration and the users and clients of the seed file. The
 * seed file is what the cluster launcher writes as {@code demo-credentials.properties}: for each of the roles
 * {@code admin}, {@code trader}, {@code customer} and {@code publisher}: {@code <role>.client-id} and {@code
 * <role>.client-secret}, and {@code <role>.password}. Each becomes a user named after the role, holding it; the client
 * (when given) acts for that user, and the password (when given) is that person's for the web pages' sign-in.
 * Outside the {@code local} profile every client secret and password in the file is held to common's {@link
 * FailClosedSecrets} rules, and a file with one that fails them is refused before anything is seeded: the file makes
 * the cluster's first admin, whose secret must not be a placeholder copied from the example.
 */
final class SeedingIdentities {

    private static final Logger log = LoggerFactory.getLogger(SeedingIdentities.class);
    private static final Map<String, List<String>> SEEDED_USERS = Map.of(
            "admin", List.of("admin"),
            "trader", List.of("trader"),
            "customer", List.of("customer"),
            "publisher", List.of("publisher"));

    private SeedingIdentities() {}

    /** @param failClosed whether the seed file's secrets must pass {@link FailClosedSecrets} (outside {@code local}) */
    static void seed(Identities identities, IdentityProperties properties, boolean failClosed) {
        Path file = properties.seedFile();
        Properties seed = file == null || file.toString().isBlank() ? null : read(file);
        if (seed != null && failClosed) refuseUnsafeSecrets(seed, file);
        SeedStamp stamp = new SeedStamp(properties.seedStamp());
        if (!stamp.enabled()) {
            seedAll(identities, properties, seed);
            return;
        }
        if (stamp.matches(state(identities, properties, seed))) {
            log.info("Identities as seeded before (stamp {}): nothing to hash again", properties.seedStamp());
            return;
        }
        seedAll(identities, properties, seed);
        stamp.record(state(identities, properties, seed));
    }

    private static void seedAll(Identities identities, IdentityProperties properties, Properties seed) {
        properties.serviceClients().forEach((clientId, secret) -> {
            if (secret != null && !secret.isBlank()) identities.ensureServiceClient(clientId, secret);
        });
        if (seed == null) return;
        SEEDED_USERS.forEach((user, roles) -> {
            String clientId = seed.getProperty(user + ".client-id");
            String secret = seed.getProperty(user + ".client-secret");
            String password = blankToNull(seed.getProperty(user + ".password"));
            boolean client = clientId != null && secret != null;
            if (!client && password == null) return;
            identities.ensureUser(user, roles, password);
            if (client) identities.ensureProgramClient(clientId, secret, user);
            log.info(
                    "Seeded user {} with roles {}{}{}",
                    user,
                    roles,
                    client ? " and its client " + clientId : "",
                    password != null ? " and a password" : "");
        });
    }

    /**
     * What seeding starts from and what it leaves: the seed file, the service clients' secrets, and what is stored
     * for every identity either names (in a fixed order).
     */
    private static List<String> state(Identities identities, IdentityProperties properties, Properties seed) {
        List<String> state = new ArrayList<>();
        state.add(seed == null ? "no seed file" : "seed file");
        new TreeMap<>(properties.serviceClients()).forEach((clientId, secret) -> {
            state.add(clientId);
            state.add(secret);
            state.add(identities.storedClient(clientId));
        });
        if (seed == null) return state;
        for (String user : new TreeSet<>(SEEDED_USERS.keySet())) {
            // What seeding reads of the file (not its other lines, such as the token URL a restart on other ports
            // moves), and what it left in the database.
            for (String key : List.of(".client-id", ".client-secret", ".password")) {
                state.add(seed.getProperty(user + key));
            }
            state.add(user);
            state.add(identities.storedUser(user));
            state.add(identities.storedClient(seed.getProperty(user + ".client-id")));
        }
        return state;
    }

    static Properties read(Path file) {
        Properties seed = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            seed.load(reader);
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read the identity seed file " + file, e);
        }
        return seed;
    }

    /**
     * Every client secret and password the file gives (a password left blank is not given) must pass the fail-closed
     * rules; the message names each key that does not, never its value.
     */
    static void refuseUnsafeSecrets(Properties seed, Path file) {
        List<String> problems = new ArrayList<>();
        for (String user : SEEDED_USERS.keySet().stream().sorted().toList()) {
            String secretKey = user + ".client-secret";
            if (seed.getProperty(user + ".client-id") != null || seed.getProperty(secretKey) != null) {
                String problem = FailClosedSecrets.problem(seed.getProperty(secretKey));
                if (problem != null) problems.add(secretKey + " " + problem);
            }
            String password = blankToNull(seed.getProperty(user + ".password"));
            if (password != null) {
                String problem = FailClosedSecrets.problem(password);
                if (problem != null) problems.add(user + ".password " + problem);
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException(
                    "Refusing to seed identities outside the '" + FailClosedSecrets.LOCAL_PROFILE
                            + "' profile from " + file + " with unsafe secrets: " + String.join("; ", problems)
                            + ". Generate each with: openssl rand -base64 32 (see SECURITY.md).");
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
