package dev.agora.frontend.identity;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Backoff per account for sign-in attempts ({@code agora.identity.sign-in-backoff}, {@link SignInBackoff}); its
 * {@code enabled} (default: as {@code agora.limits.rates-enabled}) decides whether the filter exists at all. The
 * defaults are short on purpose (a long lockout would let anyone lock a person out); tests shorten them further.
 *
 * @param freeFailures failed attempts in a row an account may make before it must wait (10)
 * @param firstWait the first wait (1s); each further failure doubles it
 * @param maxWait the longest wait (5m)
 */
@ConfigurationProperties("agora.identity.sign-in-backoff")
record SignInBackoffSettings(@DefaultValue("10") int freeFailures, Duration firstWait, Duration maxWait) {

    SignInBackoffSettings {
        if (freeFailures < 0) throw new IllegalArgumentException("free-failures must not be negative");
        if (firstWait == null) firstWait = Duration.ofSeconds(1);
        if (maxWait == null) maxWait = Duration.ofMinutes(5);
        if (firstWait.isNegative() || firstWait.isZero() || maxWait.compareTo(firstWait) < 0)
            throw new IllegalArgumentException("sign-in backoff needs 0 < first-wait <= max-wait");
    }
}
