package dev.agora.common.security.testing;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.agora.common.security.AgoraSecurityProperties;
import dev.agora.common.security.Roles;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.security.oauth2.jwt.JwsHeader;
import org.springframework.security.oauth2.jwt.JwtClaimsSet;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.security.oauth2.jwt.JwtEncoderParameters;
import org.springframework.security.oauth2.jwt.NimbusJwtEncoder;

/**
 * A stand-in for the frontend's authorization server in one service's tests: real RSA-signed JWTs, its JWKS
 * and a client-credentials token endpoint served over real HTTP on 127.0.0.1, so the service under test fetches
 * keys and tokens exactly as it does from the frontends. Point the service at it with
 * {@code agora.security.authorities=<url()>}. Cluster tests use the real frontend instead.
 */
public final class TestIssuer implements AutoCloseable {

    private final RSAKey key;
    private final JwtEncoder encoder;
    private final JwtEncoder strangerEncoder;
    private final HttpServer server;
    private final Map<String, String> clientSecrets = new ConcurrentHashMap<>();

    public TestIssuer() {
        try {
            this.key =
                    new RSAKeyGenerator(2048).keyID("test-" + UUID.randomUUID()).generate();
            // Same key id, another key: what a forger who knows the kid would sign with.
            RSAKey stranger = new RSAKeyGenerator(2048).keyID(key.getKeyID()).generate();
            this.encoder = new NimbusJwtEncoder(new ImmutableJWKSet<>(new JWKSet(key)));
            this.strangerEncoder = new NimbusJwtEncoder(new ImmutableJWKSet<>(new JWKSet(stranger)));
            this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        } catch (JOSEException | IOException e) {
            throw new IllegalStateException(e);
        }
        server.createContext("/oauth2/jwks", this::jwks);
        server.createContext("/oauth2/token", this::token);
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Lets a service's client credentials get tokens at {@code /oauth2/token}. */
    public TestIssuer registerClient(String clientId, String secret) {
        clientSecrets.put(clientId, secret);
        return this;
    }

    /** A person's or program's token, valid for ten minutes: subject and roles (lower case, e.g. "customer"). */
    public String token(String subject, String... roles) {
        return sign(
                encoder,
                AgoraSecurityProperties.DEFAULT_ISSUER,
                subject,
                List.of(roles),
                null,
                Instant.now(),
                Duration.ofMinutes(10));
    }

    /** A service's token (scope {@code internal}), as the client-credentials grant issues it. */
    public String serviceToken(String clientId) {
        return sign(
                encoder,
                AgoraSecurityProperties.DEFAULT_ISSUER,
                clientId,
                List.of(),
                Roles.INTERNAL_SCOPE,
                Instant.now(),
                Duration.ofMinutes(10));
    }

    /** Signed with the right key, expired an hour ago (well past any clock skew allowance). */
    public String expiredToken(String subject, String... roles) {
        return sign(
                encoder,
                AgoraSecurityProperties.DEFAULT_ISSUER,
                subject,
                List.of(roles),
                null,
                Instant.now().minus(Duration.ofHours(2)),
                Duration.ofHours(1));
    }

    /** Right claims and key id, signed by a key the issuer never published. */
    public String forgedToken(String subject, String... roles) {
        return sign(
                strangerEncoder,
                AgoraSecurityProperties.DEFAULT_ISSUER,
                subject,
                List.of(roles),
                null,
                Instant.now(),
                Duration.ofMinutes(10));
    }

    /** Signed with the right key but naming another issuer. */
    public String tokenFromOtherIssuer(String subject, String... roles) {
        return sign(
                encoder,
                "http://elsewhere.example",
                subject,
                List.of(roles),
                null,
                Instant.now(),
                Duration.ofMinutes(10));
    }

    private static String sign(
            JwtEncoder with,
            String issuer,
            String subject,
            List<String> roles,
            String scope,
            Instant issuedAt,
            Duration life) {
        JwtClaimsSet.Builder claims = JwtClaimsSet.builder()
                .issuer(issuer)
                .subject(subject)
                .issuedAt(issuedAt)
                .notBefore(issuedAt)
                .expiresAt(issuedAt.plus(life));
        if (!roles.isEmpty())
            claims.claim(
                    Roles.CLAIM,
                    roles.stream().map(r -> r.toLowerCase(Locale.ROOT)).toList());
        if (scope != null) claims.claim("scope", scope);
        return with.encode(
                        JwtEncoderParameters.from(JwsHeader.with(() -> "RS256").build(), claims.build()))
                .getTokenValue();
    }

    private void jwks(HttpExchange exchange) throws IOException {
        reply(exchange, 200, new JWKSet(key.toPublicJWK()).toString());
    }

    private void token(HttpExchange exchange) throws IOException {
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        String[] credentials = authorization == null || !authorization.startsWith("Basic ")
                ? new String[0]
                : new String(Base64.getDecoder().decode(authorization.substring(6)), StandardCharsets.UTF_8)
                        .split(":", 2);
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        if (credentials.length != 2
                || !credentials[1].equals(clientSecrets.get(credentials[0]))
                || Arrays.stream(body.split("&")).noneMatch("grant_type=client_credentials"::equals)) {
            reply(exchange, 401, "{\"error\":\"invalid_client\"}");
            return;
        }
        String token = serviceToken(credentials[0]);
        reply(
                exchange,
                200,
                "{\"access_token\":\"" + token
                        + "\",\"token_type\":\"Bearer\",\"expires_in\":600,\"scope\":\"internal\"}");
    }

    private static void reply(HttpExchange exchange, int status, String json) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (var out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
