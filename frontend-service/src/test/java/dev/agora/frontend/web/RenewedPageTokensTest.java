package dev.agora.frontend.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.common.security.testing.FormSignIn;
import dev.agora.frontend.cluster.BookstoreCluster;
import dev.agora.frontend.identity.Identities;
import java.io.ByteArrayInputStream;
import java.io.ObjectInputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.JdbcUserDetailsManager;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A page token is signed from the user as the identity database holds them when it is renewed, not from what the
 * session remembered at sign-in: a demoted person's next token carries only the roles left (and the pages follow),
 * and a disabled person is signed out instead of getting one. Renewal is forced by removing the kept token from the
 * session in the shared database, as its running out would.
 */
class RenewedPageTokensTest {

    private static final String PASSWORD = "a-long-enough-renewal-password";

    private static BookstoreCluster cluster;
    private static JdbcTemplate identityDatabase;
    private static Identities identities;
    private static JdbcUserDetailsManager users;
    private final FormSignIn web = new FormSignIn();

    @BeforeAll
    static void start() {
        cluster = BookstoreCluster.get();
        identities = cluster.frontendContext(0).getBean(Identities.class);
        users = cluster.frontendContext(0).getBean(JdbcUserDetailsManager.class);
        identityDatabase = new JdbcTemplate(cluster.frontendContext(0).getBean(DataSource.class));
    }

    @Test
    void aDemotedPersonsRenewedTokenCarriesOnlyTheRolesLeft() throws Exception {
        String user = "renewal-demoted";
        identities.ensureUser(user, List.of("customer", "publisher"), PASSWORD);
        String session = web.signIn(cluster.frontend(0), user, PASSWORD).orElseThrow();
        assertThat(web.get(cluster.frontend(0) + "/publish", session).statusCode())
                .isEqualTo(200);
        assertThat(web.get(cluster.frontend(0) + "/orders", session).statusCode())
                .as("a page that calls the API with the person's token")
                .isEqualTo(200);
        assertThat(roles(keptToken(user))).containsExactlyInAnyOrder("customer", "publisher");

        identities.ensureUser(user, List.of("customer"));
        forgetKeptToken(user);
        HttpResponse<String> orders = web.get(cluster.frontend(1) + "/orders", session);

        assertThat(orders.statusCode()).as(orders.body()).isEqualTo(200);
        assertThat(roles(keptToken(user))).as("the renewed token's roles").containsExactly("customer");
        HttpResponse<String> publish = web.get(cluster.frontend(0) + "/publish", session);
        assertThat(publish.statusCode())
                .as("publishing, after the demotion was seen")
                .isNotEqualTo(200);
        assertThat(publish.body()).doesNotContain("<h1>Publish</h1>");
    }

    @Test
    void aDisabledPersonIsSignedOutInsteadOfGettingANewToken() throws Exception {
        String user = "renewal-disabled";
        identities.ensureUser(user, List.of("customer"), PASSWORD);
        String session = web.signIn(cluster.frontend(0), user, PASSWORD).orElseThrow();
        assertThat(web.get(cluster.frontend(0) + "/orders", session).statusCode())
                .isEqualTo(200);
        String before = keptToken(user);

        users.updateUser(User.withUserDetails(users.loadUserByUsername(user))
                .disabled(true)
                .build());
        forgetKeptToken(user);
        HttpResponse<String> orders = web.get(cluster.frontend(0) + "/orders", session);

        assertThat(orders.statusCode()).as(orders.body()).isEqualTo(302);
        assertThat(orders.headers().firstValue("Location"))
                .hasValueSatisfying(to -> assertThat(to).endsWith("/login"));
        assertThat(sessionsOf(user)).as("the disabled person's session").isZero();
        assertThat(before).isNotNull();
        HttpResponse<String> again = web.get(cluster.frontend(1) + "/orders", session);
        assertThat(again.statusCode()).isEqualTo(302);
    }

    /** The page token kept in the person's session (SessionTokens.Kept, serialized by Spring Session JDBC). */
    private static String keptToken(String user) throws Exception {
        List<byte[]> kept = identityDatabase.query(
                "SELECT a.attribute_bytes FROM spring_session_attributes a"
                        + " JOIN spring_session s ON s.primary_id = a.session_primary_id"
                        + " WHERE s.principal_name = ? AND a.attribute_name = ?",
                (row, n) -> row.getBytes(1),
                user,
                SessionTokens.class.getName());
        assertThat(kept).as("one kept token for " + user).hasSize(1);
        try (var in = new ObjectInputStream(new ByteArrayInputStream(kept.getFirst()))) {
            return ((SessionTokens.Kept) in.readObject()).value();
        }
    }

    private static void forgetKeptToken(String user) {
        int removed = identityDatabase.update(
                "DELETE FROM spring_session_attributes WHERE attribute_name = ? AND session_primary_id IN"
                        + " (SELECT primary_id FROM spring_session WHERE principal_name = ?)",
                SessionTokens.class.getName(),
                user);
        assertThat(removed).isEqualTo(1);
    }

    private static int sessionsOf(String user) {
        return identityDatabase.queryForObject(
                "SELECT count(*) FROM spring_session WHERE principal_name = ?", Integer.class, user);
    }

    private static List<String> roles(String token) {
        JsonNode claims = JsonMapper.builder()
                .build()
                .readTree(new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]), StandardCharsets.UTF_8));
        return claims.path("roles").valueStream().map(JsonNode::asString).toList();
    }
}
