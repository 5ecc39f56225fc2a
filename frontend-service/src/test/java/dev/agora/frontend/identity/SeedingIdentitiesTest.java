package dev.agora.frontend.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Outside {@code local}, the identity seed file's client secrets and passwords are held to the fail-closed rules
 * before anything is seeded; the example that compose ships fails them, so a copy left unedited starts no frontend.
 */
class SeedingIdentitiesTest {

    private static final String STRONG = "Qm9va3N0b3JlLXNlZWQtc2VjcmV0LW9mLTQ4LWJ5dGVzLWxvbmc";
    private static final Path EXAMPLE = Path.of("..", "docker", "secrets", "identity-seed.properties.example");

    @TempDir
    Path folder;

    @Test
    void theShippedExampleIsRefusedOutsideLocalBeforeAnythingIsSeeded() {
        // No identities to seed into: the refusal must come before any is touched.
        IllegalStateException refused = catchThrowableOfType(
                IllegalStateException.class,
                () -> SeedingIdentities.seed(null, new IdentityProperties(null, null, EXAMPLE), true));

        assertThat(refused).isNotNull();
        assertThat(refused.getMessage())
                .contains("admin.client-secret is a placeholder")
                .doesNotContain("change-me-admin-client-secret-0123456789");
    }

    @Test
    void everyWeakSecretOrPasswordIsNamed() throws IOException {
        Path seed = write(
                """
                admin.client-id=agora-admin
                admin.client-secret=%s
                customer.password=short
                trader.client-id=agora-trader
                trader.client-secret=postgres
                publisher.password=local-dev-publisher-password-0123456789
                """
                        .formatted(STRONG));

        IllegalStateException refused = catchThrowableOfType(
                IllegalStateException.class,
                () -> SeedingIdentities.refuseUnsafeSecrets(SeedingIdentities.read(seed), seed));

        assertThat(refused.getMessage())
                .contains("customer.password is shorter than 32 bytes")
                .contains("trader.client-secret is a known development value")
                .contains("publisher.password is a placeholder")
                .doesNotContain("admin.client-secret");
    }

    @Test
    void aClientWithoutASecretIsRefusedToo() throws IOException {
        Path seed = write("admin.client-id=agora-admin\n");

        assertThat(catchThrowableOfType(
                                IllegalStateException.class,
                                () -> SeedingIdentities.refuseUnsafeSecrets(SeedingIdentities.read(seed), seed))
                        .getMessage())
                .contains("admin.client-secret is missing");
    }

    @Test
    void strongValuesPassAndABlankPasswordIsNotGiven() throws IOException {
        Path seed = write(
                """
                admin.client-id=agora-admin
                admin.client-secret=%s
                admin.password=
                customer.password=%s-customer
                """
                        .formatted(STRONG, STRONG));

        assertThatCode(() -> SeedingIdentities.refuseUnsafeSecrets(SeedingIdentities.read(seed), seed))
                .doesNotThrowAnyException();
    }

    private Path write(String content) throws IOException {
        return Files.writeString(folder.resolve("seed.properties"), content);
    }
}
