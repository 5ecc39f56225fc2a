package dev.agora.frontend.identity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.frontend.cluster.BookstoreCluster;
import dev.agora.frontend.cluster.Http;
import dev.agora.frontend.cluster.Tokens;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The identity database's pool exhausted while a filter needs it (the token endpoint looks its client up inside
 * Spring Security's filters, outside Spring MVC) is a bound reached, not a bug: 503 problem+json with
 * {@code Retry-After}, and the same request is served once a connection is free. On a frontend of the suite's
 * cluster whose two pooled connections the test holds.
 */
class BusyIdentityDatabaseTest {

    private static final String SECRET = "a-long-enough-busy-database-client-secret";

    @Test
    void aTokenRequestThatFindsThePoolTakenIsA503ProblemAndIsServedOnceAConnectionIsFree() throws Exception {
        try (ConfigurableApplicationContext frontend = BookstoreCluster.get()
                        .startAnotherFrontend(
                                "--spring.datasource.hikari.maximum-pool-size=2",
                                // Hikari's shortest wait: the refused request answers at once.
                                "--spring.datasource.hikari.connection-timeout=250");
                Http http = new Http()) {
            Identities identities = frontend.getBean(Identities.class);
            identities.ensureUser("busy-program", List.of("customer"), SECRET);
            identities.ensureProgramClient("busy-client", SECRET, "busy-program");
            String tokens = "http://127.0.0.1:"
                    + ((WebServerApplicationContext) frontend).getWebServer().getPort() + "/oauth2/token";
            String basic =
                    Base64.getEncoder().encodeToString(("busy-client:" + SECRET).getBytes(StandardCharsets.UTF_8));

            DataSource database = frontend.getBean(DataSource.class);
            try (Connection one = database.getConnection();
                    Connection two = database.getConnection()) {
                Http.Response busy = http.post(
                        tokens,
                        "grant_type=client_credentials",
                        Map.of("Authorization", "Basic " + basic, "Content-Type", "application/x-www-form-urlencoded"));
                assertThat(busy.status()).as(busy.body()).isEqualTo(503);
                assertThat(busy.header("Retry-After")).isEqualTo("1");
                assertThat(busy.header("Content-Type")).startsWith("application/problem+json");
                assertThat(busy.body())
                        .contains("\"type\":\"https://agora.dev/problems/service-unavailable\"")
                        .contains("reach its database")
                        .doesNotContain("HikariPool");
            }
            assertThat(new Tokens(tokens).fetch("busy-client", SECRET)).isNotBlank();
        }
    }
}
