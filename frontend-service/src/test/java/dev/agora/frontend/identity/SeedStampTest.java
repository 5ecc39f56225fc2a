package dev.agora.frontend.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.oauth2.server.authorization.client.InMemoryRegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;

/**
 * A start whose seed file, service secrets and stored identities are what the last seeding left hashes nothing; any
 * change among them seeds (and hashes) as before, and the stored secrets stay BCrypt hashes.
 */
class SeedStampTest {

    private static final String SEED =
            """
            customer.client-id=agora-customer
            customer.client-secret=customer-secret-of-at-least-32-bytes
            customer.password=customer-password-of-at-least-32-bytes
            """;

    @TempDir
    Path folder;

    private final CountingEncoder passwords = new CountingEncoder();
    private final InMemoryUserDetailsManager users = new InMemoryUserDetailsManager();
    private final RegisteredClientRepository clients = emptyClients();

    @Test
    void anUnchangedRestartHashesNothingAndAChangedFileSeedsAgain() throws IOException {
        Path file = Files.writeString(folder.resolve("seed.properties"), SEED);
        IdentityProperties properties =
                new IdentityProperties(null, Map.of("order-service", "order-secret"), file, folder.resolve("stamp"));

        seed(properties);
        int firstStart = passwords.hashes.get();
        String clientHash = clients.findByClientId("agora-customer").getClientSecret();
        seed(properties);

        assertThat(firstStart).isGreaterThanOrEqualTo(3);
        assertThat(passwords.hashes).hasValue(firstStart);
        assertThat(clients.findByClientId("agora-customer").getClientSecret())
                .isEqualTo(clientHash)
                .startsWith("$2");
        assertThat(Files.readString(folder.resolve("stamp"))).doesNotContain("secret", "password");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(folder.resolve("stamp"))))
                .isEqualTo("rw-------");

        Files.writeString(file, SEED + "token-url=http://127.0.0.1:13080/oauth2/token\n");
        seed(properties);
        assertThat(passwords.hashes).as("a line seeding does not read").hasValue(firstStart);

        Files.writeString(file, SEED.replace("customer-password-", "another-password-"));
        seed(properties);

        assertThat(passwords.hashes.get()).isGreaterThan(firstStart);
        assertThat(passwords.matches(
                        "another-password-of-at-least-32-bytes",
                        users.loadUserByUsername("customer").getPassword()))
                .isTrue();
    }

    @Test
    void aRotatedServiceSecretOrAChangedIdentitySeedsAgain() throws IOException {
        Path file = Files.writeString(folder.resolve("seed.properties"), SEED);
        Path stamp = folder.resolve("stamp");
        seed(new IdentityProperties(null, Map.of("order-service", "order-secret"), file, stamp));
        int seeded = passwords.hashes.get();

        seed(new IdentityProperties(null, Map.of("order-service", "rotated-secret"), file, stamp));
        assertThat(passwords.hashes.get()).isGreaterThan(seeded);
        assertThat(passwords.matches(
                        "rotated-secret",
                        clients.findByClientId("order-service").getClientSecret()))
                .isTrue();

        int rotated = passwords.hashes.get();
        users.updateUser(User.withUserDetails(users.loadUserByUsername("customer"))
                .roles("ADMIN")
                .build());
        seed(new IdentityProperties(null, Map.of("order-service", "rotated-secret"), file, stamp));
        assertThat(passwords.hashes.get()).isGreaterThan(rotated);
        assertThat(users.loadUserByUsername("customer").getAuthorities())
                .extracting(Object::toString)
                .containsExactly("ROLE_CUSTOMER");
    }

    @Test
    void anotherDatabaseIsSeededThoughTheStampIsThere() throws IOException {
        Path file = Files.writeString(folder.resolve("seed.properties"), SEED);
        IdentityProperties properties = new IdentityProperties(null, Map.of(), file, folder.resolve("stamp"));
        seed(properties);

        InMemoryUserDetailsManager otherUsers = new InMemoryUserDetailsManager();
        RegisteredClientRepository otherClients = emptyClients();
        SeedingIdentities.seed(
                new Identities(otherUsers, otherClients, passwords, Duration.ofMinutes(15)), properties, false);

        assertThat(otherUsers.userExists("customer")).isTrue();
        assertThat(otherClients.findByClientId("agora-customer")).isNotNull();
    }

    private void seed(IdentityProperties properties) {
        SeedingIdentities.seed(new Identities(users, clients, passwords, Duration.ofMinutes(15)), properties, false);
    }

    /** An empty repository: the in-memory one wants at least one client, so it starts with one seeding never names. */
    private static RegisteredClientRepository emptyClients() {
        return new InMemoryRegisteredClientRepository(List.of(RegisteredClient.withId("unrelated")
                .clientId("unrelated")
                .authorizationGrantType(
                        org.springframework.security.oauth2.core.AuthorizationGrantType.CLIENT_CREDENTIALS)
                .build()));
    }

    /** BCrypt at its lowest cost, counting the hashes and checks seeding asks for. */
    private static final class CountingEncoder implements PasswordEncoder {
        private final PasswordEncoder bcrypt = new BCryptPasswordEncoder(4);
        private final AtomicInteger hashes = new AtomicInteger();

        @Override
        public String encode(CharSequence raw) {
            hashes.incrementAndGet();
            return bcrypt.encode(raw);
        }

        @Override
        public boolean matches(CharSequence raw, String encoded) {
            hashes.incrementAndGet();
            return bcrypt.matches(raw, encoded);
        }
    }
}
