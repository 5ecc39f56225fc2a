package dev.agora.common.security;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import java.time.Duration;
import java.time.Instant;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;

/**
 * Remembers tokens that passed verification, so a client that sends the same token with every request pays for
 * the signature check once instead of per request (a buy crosses three services, each of which checks it). Only
 * tokens that verified are kept, each at most until it expires and never longer than a few minutes, and a kept
 * token is checked against the clock again on every use. A token that fails is never kept.
 */
public final class VerifiedTokens implements JwtDecoder {

    private static final Duration LONGEST_KEPT = Duration.ofMinutes(5);

    private final JwtDecoder verifier;
    private final Cache<String, Jwt> verified;

    public VerifiedTokens(JwtDecoder verifier, long maximumTokens) {
        this.verifier = verifier;
        this.verified = Caffeine.newBuilder()
                .maximumSize(maximumTokens)
                .expireAfter(Expiry.<String, Jwt>creating((token, jwt) -> keepFor(jwt)))
                .build();
    }

    @Override
    public Jwt decode(String token) throws JwtException {
        Jwt known = verified.getIfPresent(token);
        if (known != null) {
            Instant now = Instant.now();
            if (known.getExpiresAt() == null || !now.isBefore(known.getExpiresAt())) {
                verified.invalidate(token);
                throw new BadJwtException("The token has expired");
            }
            return known;
        }
        Jwt jwt = verifier.decode(token);
        verified.put(token, jwt);
        return jwt;
    }

    /** Tokens remembered now (Caffeine's estimate). */
    public long remembered() {
        return verified.estimatedSize();
    }

    private static Duration keepFor(Jwt jwt) {
        if (jwt.getExpiresAt() == null) return Duration.ZERO;
        Duration left = Duration.between(Instant.now(), jwt.getExpiresAt());
        return left.isNegative() ? Duration.ZERO : left.compareTo(LONGEST_KEPT) < 0 ? left : LONGEST_KEPT;
    }
}
