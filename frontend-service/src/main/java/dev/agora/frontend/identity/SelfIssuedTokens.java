package dev.agora.frontend.identity;

import dev.agora.common.security.Roles;
import dev.agora.common.security.ServiceTokens;
import java.time.Duration;
import java.time.Instant;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.JwsHeader;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtClaimsSet;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.security.oauth2.jwt.JwtEncoderParameters;

/**
 * The frontend's own service token. The frontend is the authorization server, so it signs its token itself with
 * the same key and claims as the token endpoint would give it, instead of calling its own endpoint over HTTP.
 */
final class SelfIssuedTokens implements ServiceTokens {

    private static final Duration RENEW_BEFORE_EXPIRY = Duration.ofMinutes(1);

    private final JwtEncoder encoder;
    private final String issuer;
    private final String clientId;
    private final Duration lifetime;
    private volatile Jwt current;

    SelfIssuedTokens(JwtEncoder encoder, String issuer, String clientId, Duration lifetime) {
        this.encoder = encoder;
        this.issuer = issuer;
        this.clientId = clientId;
        this.lifetime = lifetime;
    }

    @Override
    public String bearer() {
        Jwt token = current;
        if (token == null || Instant.now().plus(RENEW_BEFORE_EXPIRY).isAfter(token.getExpiresAt())) {
            token = issue();
            current = token;
        }
        return token.getTokenValue();
    }

    private Jwt issue() {
        Instant now = Instant.now();
        JwtClaimsSet claims = JwtClaimsSet.builder()
                .issuer(issuer)
                .subject(clientId)
                .claim("client_id", clientId)
                .claim("scope", Roles.INTERNAL_SCOPE)
                .issuedAt(now)
                .notBefore(now)
                .expiresAt(now.plus(lifetime))
                .build();
        return encoder.encode(JwtEncoderParameters.from(
                JwsHeader.with(SignatureAlgorithm.RS256).build(), claims));
    }
}
