package dev.agora.frontend.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.common.security.testing.FormSignIn;
import dev.agora.frontend.cluster.BookstoreCluster;
import dev.agora.frontend.identity.Identities;
import java.net.http.HttpResponse;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The pages' sessions behind the edge, which may send each request to another frontend: a person signs in on one
 * frontend over plain HTTP and their session cookie works on the others, and signing out on any ends it on all. The
 * frontends are the test cluster's, three Spring contexts sharing one identity database in a real PostgreSQL.
 */
class SessionsAcrossFrontendsTest {

    private static final String PASSWORD = "a-long-enough-session-password";
    private static final String CUSTOMER = "session-customer";

    private static BookstoreCluster cluster;
    private static JdbcTemplate identityDatabase;
    private final FormSignIn web = new FormSignIn();

    @BeforeAll
    static void start() {
        cluster = BookstoreCluster.get();
        cluster.frontendContext(0).getBean(Identities.class).ensureUser(CUSTOMER, List.of("customer"), PASSWORD);
        identityDatabase = new JdbcTemplate(cluster.frontendContext(0).getBean(DataSource.class));
    }

    @Test
    void aPersonSignedInOnOneFrontendIsSignedInOnTheOthers() throws Exception {
        String session = web.signIn(cluster.frontend(0), CUSTOMER, PASSWORD).orElseThrow();

        for (int frontend : new int[] {1, 2, 0}) {
            HttpResponse<String> orders = web.get(cluster.frontend(frontend) + "/orders", session);
            assertThat(orders.statusCode())
                    .as("frontend %d: %s", frontend, orders.body())
                    .isEqualTo(200);
            assertThat(orders.body()).as("frontend %d", frontend).contains("Signed in as <strong>" + CUSTOMER);
        }
        HttpResponse<String> anonymous = web.get(cluster.frontend(1) + "/orders", null);
        assertThat(anonymous.statusCode()).as("no cookie: sent to sign in").isEqualTo(302);
        assertThat(anonymous.headers().firstValue("Location"))
                .hasValueSatisfying(to -> assertThat(to).endsWith("/login"));
        assertThat(identityDatabase.queryForObject(
                        "SELECT count(*) FROM spring_session WHERE principal_name = ?", Integer.class, CUSTOMER))
                .as("the session is a row of the shared database")
                .isPositive();
    }

    @Test
    void signingOutOnOneFrontendEndsTheSessionOnEveryFrontend() throws Exception {
        String session = web.signIn(cluster.frontend(1), CUSTOMER, PASSWORD).orElseThrow();
        assertThat(web.get(cluster.frontend(0) + "/orders", session).statusCode())
                .isEqualTo(200);

        HttpResponse<String> signedOut =
                web.postWithCsrf(cluster.frontend(0) + "/orders", cluster.frontend(0) + "/logout", session);
        assertThat(signedOut.statusCode()).isEqualTo(302);
        assertThat(signedOut.headers().firstValue("Location"))
                .hasValueSatisfying(to -> assertThat(to).endsWith("/?signedOut"));

        for (int frontend : new int[] {1, 2}) {
            HttpResponse<String> after = web.get(cluster.frontend(frontend) + "/orders", session);
            assertThat(after.statusCode())
                    .as("frontend %d after signing out", frontend)
                    .isEqualTo(302);
            assertThat(after.body()).doesNotContain(CUSTOMER);
        }
    }

    @Test
    void aWrongPasswordOrAForgedCookieSignsNobodyIn() throws Exception {
        assertThat(web.signIn(cluster.frontend(0), CUSTOMER, PASSWORD + "x")).isEmpty();

        HttpResponse<String> forged = web.get(cluster.frontend(1) + "/orders", "bm90LWEtc2Vzc2lvbg");
        assertThat(forged.statusCode()).isEqualTo(302);
    }
}
