package dev.agora.common.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

class FailClosedSecretsTest {

    private final FailClosedSecrets check = new FailClosedSecrets();

    @Test
    void weakSecretsAreNamedWithTheReason() {
        assertThat(FailClosedSecrets.problem(null)).isEqualTo("is missing");
        assertThat(FailClosedSecrets.problem("  ")).isEqualTo("is blank");
        assertThat(FailClosedSecrets.problem("postgres")).contains("known development value");
        assertThat(FailClosedSecrets.problem("change-me-database-password-0123456789"))
                .contains("change-me");
        assertThat(FailClosedSecrets.problem("local-dev-order-service-secret-0123456789abcdef"))
                .contains("local-dev-");
        assertThat(FailClosedSecrets.problem("x".repeat(31))).contains("shorter than 32 bytes");
        assertThat(FailClosedSecrets.problem("Kq3vX9pL2mN8rT5wY1zB4cF7hJ0dG6sA"))
                .isNull();
    }

    @Test
    void outsideTheLocalProfileAServiceWithAWeakSecretDoesNotStart() {
        // What a service's configuration names is checked (a blank one: the deployment did not give it); a secret
        // it does not name (here the frontend's service clients) is not its to hold.
        StandardEnvironment environment = environment(Map.of(
                "agora.security.client-secret",
                "Kq3vX9pL2mN8rT5wY1zB4cF7hJ0dG6sA",
                "agora.identity.signing-key",
                "",
                "spring.datasource.password",
                "postgres"));
        environment.setActiveProfiles("prod");

        assertThatThrownBy(() -> check.postProcessEnvironment(environment, new SpringApplication()))
                .hasMessageContaining("spring.datasource.password is a known development value")
                .hasMessageContaining("agora.identity.signing-key is blank")
                .hasMessageNotContaining("service-clients")
                .hasMessageNotContaining("agora.security.client-secret");
    }

    @Test
    void aSecretThatMayBeAbsentIsHeldToTheRulesOnceItIsSet() {
        StandardEnvironment absent = environment(Map.of());
        absent.setActiveProfiles("prod");
        check.postProcessEnvironment(absent, new SpringApplication());

        StandardEnvironment placeholder =
                environment(Map.of(FailClosedSecrets.IF_SET, "change-me-minio-root-password-at-least-32-bytes"));
        placeholder.setActiveProfiles("prod");
        assertThatThrownBy(() -> check.postProcessEnvironment(placeholder, new SpringApplication()))
                .hasMessageContaining("AWS_SECRET_ACCESS_KEY is a placeholder");
    }

    @Test
    void theLocalProfileAcceptsDevelopmentSecrets() {
        StandardEnvironment environment = environment(Map.of("spring.datasource.password", "postgres"));
        environment.setActiveProfiles("local");

        check.postProcessEnvironment(environment, new SpringApplication());
    }

    private static StandardEnvironment environment(Map<String, Object> properties) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
        return environment;
    }
}
