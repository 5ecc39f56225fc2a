package dev.agora.common.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;

class VerifiedTokensTest {

    private final AtomicInteger verifications = new AtomicInteger();

    @Test
    void aTokenThatVerifiedIsNotVerifiedAgainWhileItIsValid() {
        JwtDecoder tokens = new VerifiedTokens(verifierExpiringIn(600), 10);

        Jwt first = tokens.decode("good");
        Jwt second = tokens.decode("good");

        assertThat(second).isSameAs(first);
        assertThat(verifications).hasValue(1);
    }

    @Test
    void aTokenThatFailedIsVerifiedAgainEveryTime() {
        JwtDecoder tokens = new VerifiedTokens(
                token -> {
                    verifications.incrementAndGet();
                    throw new BadJwtException("forged");
                },
                10);

        assertThatThrownBy(() -> tokens.decode("bad")).isInstanceOf(BadJwtException.class);
        assertThatThrownBy(() -> tokens.decode("bad")).isInstanceOf(BadJwtException.class);
        assertThat(verifications).hasValue(2);
    }

    @Test
    void aRememberedTokenThatHasSinceExpiredIsRefused() throws Exception {
        JwtDecoder tokens = new VerifiedTokens(verifierExpiringIn(1), 10);
        tokens.decode("short-lived");
        Thread.sleep(1100);

        assertThatThrownBy(() -> tokens.decode("short-lived")).isInstanceOf(BadJwtException.class);
    }

    /** Like the real verifier: one token with a fixed expiry, refused once it has passed. */
    private JwtDecoder verifierExpiringIn(long seconds) {
        Instant issued = Instant.now();
        Instant expires = issued.plusSeconds(seconds);
        return token -> {
            verifications.incrementAndGet();
            if (!Instant.now().isBefore(expires)) throw new BadJwtException("expired");
            return Jwt.withTokenValue(token)
                    .header("alg", "RS256")
                    .subject("someone")
                    .issuedAt(issued)
                    .expiresAt(expires)
                    .build();
        };
    }
}
