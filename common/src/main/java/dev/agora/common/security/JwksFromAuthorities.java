package dev.agora.common.security;

import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtValidators;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;

/**
 * A JWT decoder with the keys of the authorization server's replicas: each one's {@code /oauth2/jwks} in order, the
 * next when one does not answer (Nimbus's failover source). Keys are cached and refreshed ahead of expiry; a token with
 * a key id the cache does not know triggers at most one refresh a second, so forged key ids cannot flood the frontends.
 */
public final class JwksFromAuthorities {

    private static final Logger log = LoggerFactory.getLogger(JwksFromAuthorities.class);

    private static final int TIMEOUT_MILLIS = 1000;
    private static final int MAX_JWKS_BYTES = 64 * 1024;
    private static final long CACHE_MILLIS = 5 * 60_000;
    private static final long REFRESH_AHEAD_MILLIS = 30_000;
    private static final long MIN_REFRESH_INTERVAL_MILLIS = 1000;

    private JwksFromAuthorities() {}

    public static JwtDecoder decoder(AgoraSecurityProperties properties) {
        if (properties.authorities().isEmpty()) {
            // A service run without any frontend (an exchange alone, for its XML protocol) accepts no token.
            log.warn("agora.security.authorities is empty: no authorization server, so every bearer token is refused");
            return token -> {
                throw new BadJwtException("No authorization server is configured to verify tokens");
            };
        }
        JWKSource<SecurityContext> source = null;
        for (URI authority : properties.authorities().reversed()) {
            JWKSourceBuilder<SecurityContext> builder = JWKSourceBuilder.<SecurityContext>create(
                            jwksUrl(authority),
                            new DefaultResourceRetriever(TIMEOUT_MILLIS, TIMEOUT_MILLIS, MAX_JWKS_BYTES))
                    .cache(CACHE_MILLIS, TIMEOUT_MILLIS)
                    .refreshAheadCache(REFRESH_AHEAD_MILLIS, true)
                    .rateLimited(MIN_REFRESH_INTERVAL_MILLIS)
                    .retrying(false);
            if (source != null) builder = builder.failover(source);
            source = builder.build();
        }
        NimbusJwtDecoder decoder = NimbusJwtDecoder.withJwkSource(source).build();
        decoder.setJwtValidator(JwtValidators.createDefaultWithIssuer(properties.issuer()));
        return decoder;
    }

    private static URL jwksUrl(URI authority) {
        try {
            return URI.create(authority.toString().replaceAll("/+$", "") + "/oauth2/jwks")
                    .toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("Not a URL in agora.security.authorities: " + authority, e);
        }
    }
}
