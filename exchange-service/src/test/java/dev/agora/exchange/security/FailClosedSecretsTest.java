package dev.agora.exchange.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.agora.common.security.FailClosedSecrets;
import dev.agora.exchange.ExchangeApplication;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * Outside the {@code local} profile the exchange refuses to start with a database password anyone could guess,
 * and names the property. Each case starts the real application in a production profile; the refusal comes
 * before anything listens or connects (the URL points nowhere, so no embedded database is started either).
 */
class FailClosedSecretsTest {

    private static Throwable startInProduction(String password) {
        return catchThrowable(() -> new SpringApplicationBuilder(ExchangeApplication.class)
                .profiles("prod")
                .run(
                        "--spring.datasource.url=jdbc:postgresql://127.0.0.1:9/exchange",
                        "--spring.datasource.password=" + password,
                        "--server.port=0",
                        "--agora.exchange.tcp-port=0",
                        "--agora.security.authorities=http://127.0.0.1:9")
                .close());
    }

    private static String messages(Throwable failure) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause())
            all.append(t.getMessage()).append('\n');
        return all.toString();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "postgres", // the default of application.yml and the embedded database's
                "", // blank
                "   ",
                "change-me-database-password", // docker/.env.example's placeholder
                "dev-internal-token",
                "0123456789", // ten characters
                "0123456789abcdef0123456789abcde" // 31 bytes: one short
            })
    void refusesToStartWithAWeakDatabasePassword(String password) {
        Throwable failure = startInProduction(password);
        assertThat(failure).as("started with password '" + password + "'").isNotNull();
        assertThat(messages(failure))
                .contains("spring.datasource.password")
                .contains("Refusing to start outside the 'local' profile");
    }

    @Test
    void acceptsAStrongPasswordInProductionAndAnyInTheLocalProfile() {
        String strong = "Xq3v9JtP0sLw7RkZ2mYc5NhB8dFe1GaU";
        assertThatCode(() -> check(strong, "prod")).doesNotThrowAnyException();
        assertThatCode(() -> check("postgres", "local")).doesNotThrowAnyException();
        assertThat(catchThrowable(() -> check("postgres", "prod")))
                .hasMessageContaining("spring.datasource.password is a known development value");
    }

    /** Common's check alone, on an environment holding what the exchange's application.yml declares. */
    private static void check(String password, String profile) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.setActiveProfiles(profile);
        environment
                .getPropertySources()
                .addFirst(new MapPropertySource("exchange", Map.of("spring.datasource.password", password)));
        new FailClosedSecrets()
                .postProcessEnvironment(
                        environment,
                        new SpringApplicationBuilder(ExchangeApplication.class)
                                .web(WebApplicationType.NONE)
                                .build());
    }
}
