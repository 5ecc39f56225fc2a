package dev.agora.frontend.identity;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates, at start, the service clients of the configuration and the users and clients of the seed file. The
 * seed file is what the cluster launcher writes as {@code demo-credentials.properties}: for each of the roles
 * {@code admin}, {@code trader}, {@code customer} and {@code publisher}: {@code <role>.client-id} and {@code
 * <role>.client-secret}, and {@code <role>.password}. Each becomes a user named after the role, holding it; the client
 * (when given) acts for that user, and the password (when given) is that person's for the web pages' sign-in.
 */
final class SeedingIdentities {

    private static final Logger log = LoggerFactory.getLogger(SeedingIdentities.class);
    private static final Map<String, List<String>> SEEDED_USERS = Map.of(
            "admin", List.of("admin"),
            "trader", List.of("trader"),
            "customer", List.of("customer"),
            "publisher", List.of("publisher"));

    private SeedingIdentities() {}

    static void seed(Identities identities, IdentityProperties properties) {
        properties.serviceClients().forEach((clientId, secret) -> {
            if (secret != null && !secret.isBlank()) identities.ensureServiceClient(clientId, secret);
        });
        Path file = properties.seedFile();
        if (file == null || file.toString().isBlank()) return;
        Properties seed = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            seed.load(reader);
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read the identity seed file " + file, e);
        }
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

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
