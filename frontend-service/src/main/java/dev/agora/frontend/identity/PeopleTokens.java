package dev.agora.frontend.identity;

import dev.agora.common.security.Roles;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.JwsHeader;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtClaimsSet;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.security.oauth2.jwt.JwtEncoderParameters;

/**
 * Tokens for people signed in on the web pages: the pages call the services' own APIs, and the services check who
 * may do what from a token, so the frontend signs one for the signed-in person with the same key and the same claims
 * a program's client would get for that user (subject: the user; {@code roles}: their roles). Short-lived: a page
 * keeps it in the person's session and asks for a new one when it nears its end.
 */
public final class PeopleTokens {

    /** The {@code client_id} claim of these tokens: no OAuth2 client, the frontend's web pages. */
    public static final String WEB_PAGES = "frontend-web-pages";

    private final JwtEncoder encoder;
    private final String issuer;
    private final Duration lifetime;

    PeopleTokens(JwtEncoder encoder, String issuer, Duration lifetime) {
        this.encoder = encoder;
        this.issuer = issuer;
        this.lifetime = lifetime;
    }

    /** @param authorities the person's, as the sign-in loaded them ({@code ROLE_CUSTOMER}, ...) */
    public Jwt issueFor(String username, Collection<? extends GrantedAuthority> authorities) {
        List<String> roles = authorities.stream()
                .map(GrantedAuthority::getAuthority)
                .filter(authority -> authority.startsWith("ROLE_"))
                .map(authority -> authority.substring(5).toLowerCase(Locale.ROOT))
                .toList();
        Instant now = Instant.now();
        JwtClaimsSet claims = JwtClaimsSet.builder()
                .issuer(issuer)
                .subject(username)
                .claim("client_id", WEB_PAGES)
                .claim(Roles.CLAIM, roles)
                .issuedAt(now)
                .notBefore(now)
                .expiresAt(now.plus(lifetime))
                .build();
        return encoder.encode(JwtEncoderParameters.from(
                JwsHeader.with(SignatureAlgorithm.RS256).build(), claims));
    }
}
