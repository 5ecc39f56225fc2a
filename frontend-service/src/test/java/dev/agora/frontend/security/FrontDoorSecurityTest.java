package dev.agora.frontend.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import dev.agora.common.security.AgoraSecurityProperties;
import dev.agora.frontend.cluster.Books;
import dev.agora.frontend.cluster.BookstoreCluster;
import dev.agora.frontend.cluster.Http;
import dev.agora.frontend.cluster.Tokens;
import dev.agora.frontend.identity.Identities;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.JwsHeader;
import org.springframework.security.oauth2.jwt.JwtClaimsSet;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.security.oauth2.jwt.JwtEncoderParameters;
import org.springframework.security.oauth2.jwt.NimbusJwtEncoder;

/**
 * The front door refuses what it must, through real frontends, catalogs and order processes: path tricks,
 * missing and bad tokens, callers without the right, and one customer reaching for another's order. Every
 * refusal is checked to have changed nothing.
 */
class FrontDoorSecurityTest {

    private static BookstoreCluster cluster;
    private static Http http;
    private static String a;

    @BeforeAll
    static void start() {
        cluster = BookstoreCluster.get();
        http = new Http();
        a = cluster.frontend(0);
    }

    @AfterAll
    static void closeClient() throws Exception {
        http.close();
    }

    @Test
    void pathTricksAroundTheRulesAreRefusedAndCreateNothing() {
        long booksBefore = bookCount();
        String book = "{\"title\":\"Sneaked in\",\"topic\":\"frontend tests\",\"price\":1.00,\"stock\":1}";
        Map<String, String> customer = cluster.tokens().customerAuthorization();
        for (String path : List.of(
                "/%61pi/admin/books",
                "/api/%61dmin/books",
                "/api/admin;x/books",
                "/api;x/admin/books",
                "//api/admin/books",
                "/api//admin/books",
                "/api/admin/%2e%2e/admin/books",
                "/api/books/..%2F..%2Fapi/admin/books",
                "/api/books/%2e%2e/admin/books",
                "/api/books%2Fadmin/books")) {
            for (Map<String, String> caller : List.of(Map.<String, String>of(), customer)) {
                Http.Response answer = http.post(a + path, book, caller);
                assertThat(answer.status()).as(path + " " + answer.body()).isIn(400, 401, 403, 404);
                assertThat(answer.header("Content-Type")).as(path).startsWith("application/problem+json");
            }
        }
        assertThat(bookCount()).isEqualTo(booksBefore);
    }

    @Test
    void invalidationsThroughPathTricksOrWithoutAServiceTokenLeaveTheCacheAlone() {
        http.get(a + "/api/books/2");
        assertThat(http.get(a + "/api/books/2").header("Server-Timing")).contains("cache;desc=hit");
        String poison = "{\"bookId\":2,\"version\":9223372036854775807}";
        for (String path : List.of(
                "//internal/cache/invalidations",
                "/%69nternal/cache/invalidations",
                "/internal;x/cache/invalidations",
                "/api/../internal/cache/invalidations")) {
            assertThat(http.post(a + path, poison).status()).as(path).isIn(400, 401, 403, 404);
        }
        assertThat(http.post(
                                a + "/internal/cache/invalidations",
                                poison,
                                cluster.tokens().customerAuthorization())
                        .status())
                .isEqualTo(403);

        assertThat(http.get(a + "/api/books/2").header("Server-Timing"))
                .as("still cached: no invalidation got through")
                .contains("cache;desc=hit");
    }

    @Test
    void missingExpiredForgedAndForeignTokensAreRefusedAndBuyNothing() throws Exception {
        long id = Books.register(http, cluster, "Guarded", 5);
        JwtEncoder ours = cluster.frontendContext(0).getBean(JwtEncoder.class);
        RSAKey stranger = new RSAKeyGenerator(2048).keyID("local").generate();
        JwtEncoder forger = new NimbusJwtEncoder(new ImmutableJWKSet<>(new JWKSet(stranger)));
        Instant now = Instant.now();

        Map<String, String> refusedCallers = Map.of(
                "none", "",
                "garbage", "Bearer not.a.jwt",
                "expired",
                        "Bearer " + sign(ours, AgoraSecurityProperties.DEFAULT_ISSUER, now.minus(Duration.ofHours(2))),
                "forged", "Bearer " + sign(forger, AgoraSecurityProperties.DEFAULT_ISSUER, now),
                "other issuer", "Bearer " + sign(ours, "http://elsewhere.example", now));
        refusedCallers.forEach((what, authorization) -> {
            Map<String, String> headers = authorization.isEmpty() ? Map.of() : Map.of("Authorization", authorization);
            Http.Response buy = http.post(a + "/api/orders", "{\"bookId\":" + id + ",\"quantity\":1}", headers);
            assertThat(buy.status()).as(what + ": " + buy.body()).isEqualTo(401);
            assertThat(buy.header("WWW-Authenticate")).as(what).startsWith("Bearer");
            assertThat(buy.header("Content-Type")).startsWith("application/problem+json");
        });
        assertThat(cluster.stockAndVersion(id)[0]).isEqualTo(5);

        Http.Response good = http.post(
                a + "/api/orders",
                "{\"bookId\":" + id + ",\"quantity\":1}",
                Tokens.bearer(sign(ours, AgoraSecurityProperties.DEFAULT_ISSUER, now)));
        assertThat(good.status())
                .as("the same token, properly signed and current: " + good.body())
                .isEqualTo(201);
        assertThat(cluster.stockAndVersion(id)[0]).isEqualTo(4);
    }

    @Test
    void aWrongClientSecretGetsNoToken() {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> cluster.tokens().fetch("demo-admin", "not-the-secret"))
                .hasMessageContaining("401");
    }

    @Test
    void customersSeeOnlyTheirOwnOrdersAndCannotAdminister() {
        Books.assumeOrders(cluster);
        Identities identities = cluster.frontendContext(0).getBean(Identities.class);
        identities.ensureUser("other-customer", List.of("customer"));
        identities.ensureProgramClient(
                "other-customer-client", "other-customer-secret-0123456789abcdef", "other-customer");
        Map<String, String> mine = cluster.tokens().customerAuthorization();
        Map<String, String> theirs = Tokens.bearer(
                cluster.tokens().fetch("other-customer-client", "other-customer-secret-0123456789abcdef"));
        long id = Books.register(http, cluster, "Owned", 5);

        Http.Response bought = http.post(a + "/api/orders", "{\"bookId\":" + id + ",\"quantity\":1}", mine);
        assertThat(bought.status()).as(bought.body()).isEqualTo(201);
        long orderId = bought.json().get("orderId").asLong();

        assertThat(http.get(a + "/api/orders/" + orderId, mine).status()).isEqualTo(200);
        Http.Response peek = http.get(a + "/api/orders/" + orderId, theirs);
        assertThat(peek.status()).as(peek.body()).isEqualTo(403);
        assertThat(http.get(a + "/api/orders/" + orderId, cluster.tokens().adminAuthorization())
                        .status())
                .isEqualTo(200);
        assertThat(orderIds(http.get(a + "/api/orders?page=0&size=100", mine))).contains(orderId);
        assertThat(orderIds(http.get(a + "/api/orders?page=0&size=100", theirs)))
                .doesNotContain(orderId);

        long stock = cluster.stockAndVersion(id)[0];
        Http.Response restock = http.post(a + "/api/admin/books/" + id + "/restock", "{\"quantity\":100}", mine);
        assertThat(restock.status()).isEqualTo(403);
        assertThat(cluster.stockAndVersion(id)[0]).isEqualTo(stock);
    }

    private static List<Long> orderIds(Http.Response page) {
        assertThat(page.status()).as(page.body()).isEqualTo(200);
        return page.json()
                .get("content")
                .valueStream()
                .map(order -> order.get("orderId").asLong())
                .toList();
    }

    private static String sign(JwtEncoder encoder, String issuer, Instant issuedAt) {
        JwtClaimsSet claims = JwtClaimsSet.builder()
                .issuer(issuer)
                .subject("customer")
                .claim("roles", List.of("customer"))
                .issuedAt(issuedAt)
                .notBefore(issuedAt)
                .expiresAt(issuedAt.plus(Duration.ofMinutes(15)))
                .build();
        return encoder.encode(JwtEncoderParameters.from(
                        JwsHeader.with(SignatureAlgorithm.RS256).build(), claims))
                .getTokenValue();
    }

    private static long bookCount() {
        try (var db = cluster.catalogDatabase();
                var rows = db.createStatement().executeQuery("SELECT count(*) FROM books")) {
            rows.next();
            return rows.getLong(1);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
