package dev.agora.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.common.security.testing.ServiceStart;
import dev.agora.common.security.testing.ServiceStart.Exit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The catalog started outside the {@code local} profile as its main class starts it (in this JVM, without the
 * environment's profile, secret or database variables) refuses to start while its client secret is weak, and
 * names the property. A real database password is given, so that only the secret under test can be the reason;
 * the database URL points nowhere, which the refusal comes before.
 */
class FailClosedSecretsTest {

    private static final String STRONG = "k3QvR9x2LmT8wZp4Yc6Hn1Bd5Fg7Js0A";

    @ParameterizedTest(name = "client secret [{0}] in profile [{1}]")
    @CsvSource(
            delimiter = '|',
            value = {
                // not set at all: application.yml's ${AGORA_SECURITY_CLIENT_SECRET:} makes it blank
                "<unset>                                           | production | is blank",
                "''                                                | production | is blank",
                "'   '                                             | production | is blank",
                "change-me-catalog-client-secret-0123456789abcdef  | production | is a placeholder",
                "replace-me                                        | production | is a placeholder",
                "short-but-random-9f3k                             | production | is shorter than 32 bytes",
                "local-dev-catalog-service-secret-0123456789abcdef | production | is a placeholder or development value",
                "dev-internal-token                                | production | is a known development value",
                "<unset>                                           | <none>     | is blank",
                "short-but-random-9f3k                             | default    | is shorter than 32 bytes"
            })
    void aWeakClientSecretOutsideTheLocalProfileStopsTheStartAndIsNamed(String secret, String profile, String reason) {
        Exit exit = start(secret, STRONG, profile);

        assertThat(exit.code()).as(exit.output()).isNotZero();
        assertThat(exit.output())
                .contains("Refusing to start outside the 'local' profile")
                .contains("agora.security.client-secret " + reason)
                .doesNotContain("spring.datasource.password")
                .doesNotContain("Started CatalogApplication");
    }

    @Test
    void aStrongClientSecretPassesAndAWeakDatabasePasswordIsNamedInstead() {
        Exit exit = start(STRONG, "postgres", "production");

        assertThat(exit.code()).as(exit.output()).isNotZero();
        assertThat(exit.output())
                .contains("spring.datasource.password is a known development value")
                .doesNotContain("agora.security.client-secret");
    }

    /** Starts the catalog's application as its main class does; the refusal comes before anything listens. */
    private static Exit start(String secret, String databasePassword, String profile) {
        List<String> arguments = new ArrayList<>(List.of(
                "--server.port=0",
                "--spring.datasource.url=jdbc:postgresql://127.0.0.1:9/nowhere",
                "--spring.datasource.password=" + databasePassword));
        if (!secret.equals("<unset>")) arguments.add("--agora.security.client-secret=" + secret);
        if (!profile.equals("<none>")) arguments.add("--spring.profiles.active=" + profile);
        return ServiceStart.run(CatalogApplication.class, arguments);
    }
}
