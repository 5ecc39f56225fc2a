package dev.agora.frontend.web;

import dev.agora.frontend.identity.PeopleTokens;
import jakarta.servlet.http.HttpSession;
import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.springframework.security.authentication.DisabledException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.core.userdetails.UsernameNotFoundException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;

/**
 * The token the pages send for the signed-in person, kept in their session and renewed a minute before it runs out,
 * so a page costs no signing but once every few minutes per person. The session is in the database every frontend
 * shares, so the token is reused by whichever frontend serves the person next. A renewal reads the person from the
 * identity database again: the new token carries the roles they hold now (and the session's sign-in takes them too,
 * so the pages' own rules follow), and a person who was disabled or removed is signed out instead of getting one. A
 * change of roles therefore reaches the pages within one token lifetime.
 */
public final class SessionTokens {

    private static final String ATTRIBUTE = SessionTokens.class.getName();
    private static final Duration RENEW_BEFORE_EXPIRY = Duration.ofMinutes(1);

    private final PeopleTokens tokens;
    private final UserDetailsService users;

    SessionTokens(PeopleTokens tokens, UserDetailsService users) {
        this.tokens = tokens;
        this.users = users;
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
        UserDetails current = stillAllowed(session, person.getName());
        Jwt token = tokens.issueFor(current.getUsername(), current.getAuthorities());
        if (!sameAuthorities(person, current)) signInAgain(session, person, current);
        session.setAttribute(ATTRIBUTE, new Kept(token.getSubject(), token.getTokenValue(), token.getExpiresAt()));
        return token.getTokenValue();
    }

    /** The person as the identity database holds them now; signs them out when they may no longer sign in. */
    private UserDetails stillAllowed(HttpSession session, String username) {
        UserDetails current;
        try {
            current = users.loadUserByUsername(username);
        } catch (UsernameNotFoundException removed) {
            current = null;
        }
        if (current == null
                || !current.isEnabled()
                || !current.isAccountNonLocked()
                || !current.isAccountNonExpired()) {
            session.invalidate();
            // An AuthenticationException: Spring Security's exception translation sends the person to sign in.
            throw new DisabledException("The account " + username + " may no longer sign in");
        }
        return current;
    }

    private static boolean sameAuthorities(Authentication person, UserDetails current) {
        return Set.copyOf(person.getAuthorities()).equals(Set.copyOf(current.getAuthorities()));
    }

    /**
     * The session's sign-in with the roles the person holds now, so the pages' rules ({@code hasRole}) follow the
     * tokens; stored where Spring Security keeps it, and made this request's when it is this request's person.
     */
    private static void signInAgain(HttpSession session, Authentication person, UserDetails current) {
        var renewed = UsernamePasswordAuthenticationToken.authenticated(
                person.getPrincipal(), null, current.getAuthorities());
        renewed.setDetails(person.getDetails());
        SecurityContext context = SecurityContextHolder.createEmptyContext();
        context.setAuthentication(renewed);
        session.setAttribute(HttpSessionSecurityContextRepository.SPRING_SECURITY_CONTEXT_KEY, context);
        if (SecurityContextHolder.getContext().getAuthentication() == person) {
            SecurityContextHolder.setContext(context);
        }
    }

    /**
     * What the session keeps of a token: sessions are serialized into the shared database (Spring Session JDBC), so
     * only plain values, not the token object with its headers and claims.
     */
    record Kept(String subject, String value, Instant expiresAt) implements Serializable {}
}
