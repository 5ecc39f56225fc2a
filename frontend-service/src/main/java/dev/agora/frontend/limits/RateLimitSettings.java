package dev.agora.frontend.limits;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How many requests of a kind one caller may make in a period ({@code agora.limits.*}, beside common's body cap).
 *
 * @param ratesEnabled whether {@link #rates} apply; the seed experiments' load clusters turn them off, as one
 *     address and one customer there send thousands of requests a second on purpose
 * @param rates the rate limits, each for some methods on some paths
 */
@ConfigurationProperties("agora.limits")
public record RateLimitSettings(@DefaultValue("true") boolean ratesEnabled, List<RateRule> rates) {

    public RateLimitSettings {
        rates = rates == null ? List.of() : List.copyOf(rates);
    }

    /** Who a limit counts for. */
    public enum Per {
        /** The client's address, counted before authentication (sign-in attempts). */
        ADDRESS,
        /** The authenticated caller (the token's subject), or the address of an anonymous one. */
        CALLER
    }

    /**
     * At most {@code limit} requests per {@code period} for each caller, on the given methods (all when empty) and
     * path patterns.
     */
    public record RateRule(String name, Per per, List<String> methods, List<String> paths, int limit, Duration period) {

        public RateRule {
            if (name == null || name.isBlank()) throw new IllegalArgumentException("A rate limit needs a name");
            if (per == null) per = Per.CALLER;
            methods = methods == null
                    ? List.of()
                    : methods.stream().map(String::toUpperCase).toList();
            if (paths == null || paths.isEmpty())
                throw new IllegalArgumentException("Rate limit " + name + " names no paths");
            paths = List.copyOf(paths);
            if (limit < 1) throw new IllegalArgumentException("Rate limit " + name + " must allow at least 1");
            if (period == null || period.isZero() || period.isNegative())
                throw new IllegalArgumentException("Rate limit " + name + " needs a positive period");
        }
    }
}
