package dev.agora.frontend.web;

import dev.agora.frontend.identity.PeopleTokens;
import jakarta.servlet.http.HttpSession;
import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.jwt.Jwt;

/**
 * The token the pages send for the signed-in person, kept in their session and renewed a minute before it runs out,
 * so a page costs no signing but once every few minutes per person. The session is in the database every frontend
 * shares, so the token is reused by whichever frontend serves the person next.
 */
public final class SessionTokens {

    private static final String ATTRIBUTE = SessionTokens.class.getName();
    private static final Duration RENEW_BEFORE_EXPIRY = Duration.ofMinutes(1);

    private final PeopleTokens tokens;

    SessionTokens(PeopleTokens tokens) {
        this.tokens = tokens;
    }

    /** The signed-in person's bearer token; the security chain lets only signed-in people reach the callers. */
    public String bearer(HttpSession session) {
        Authentication person = SecurityContextHolder.getContext().getAuthentication();
        if (person == null || !person.isAuthenticated()) throw new IllegalStateException("Nobody is signed in");
        return bearer(session, person);
    }

    /** For work outside the request (a live stream's polls): the person captured when it began. */
    public String bearer(HttpSession session, Authentication person) {
        Object kept = session.getAttribute(ATTRIBUTE);
        if (kept instanceof Kept token
                && token.subject().equals(person.getName())
                && Instant.now().plus(RENEW_BEFORE_EXPIRY).isBefore(token.expiresAt())) {
            return token.value();
        }
        Jwt token = tokens.issueFor(person.getName(), person.getAuthorities());
        session.setAttribute(ATTRIBUTE, new Kept(token.getSubject(), token.getTokenValue(), token.getExpiresAt()));
        return token.getTokenValue();
    }

    /**
     * What the session keeps of a token: sessions are serialized into the shared database (Spring Session JDBC), so
     * only plain values, not the token object with its headers and claims.
     */
    record Kept(String subject, String value, Instant expiresAt) implements Serializable {}
}
