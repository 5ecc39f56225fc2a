package dev.agora.frontend.limits;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How many requests of a kind one caller may make in a period ({@code agora.limits.*}, beside common's body cap).
 *
 * @param ratesEnabled whether {@link #RATES} apply; the seed experiments' load clusters turn them off, as one
 *     address and one customer there send thousands of requests a second on purpose
 */
@ConfigurationProperties("agora.limits")
public record RateLimitSettings(@DefaultValue("true") boolean ratesEnabled) {

    /**
     * The rate limits (SECURITY.md, "Limits"), code like the access rules they guard: each bounds what one person does
     * at a human pace, far above any honest use and far below what a script tries, so no deployment has a reason to
     * move them. Token requests and the web pages' form sign-in share one count, per address: guesses of a secret or
     * a password, counted before either is checked.
     */
    static final List<RateRule> RATES = List.of(
            new RateRule("sign-in", Per.ADDRESS, List.of("POST"), List.of("/oauth2/token", "/login"), 10, seconds(10)),
            new RateRule("buys", Per.CALLER, List.of("POST"), List.of("/api/orders", "/buy/*"), 20, seconds(1)),
            new RateRule(
                    "exchange-orders",
                    Per.CALLER,
                    List.of("POST", "DELETE"),
                    List.of("/api/exchange/accounts/*/orders", "/api/exchange/accounts/*/orders/*"),
                    50,
                    seconds(1)),
            new RateRule("admin", Per.CALLER, List.of(), List.of("/api/admin/**"), 20, seconds(1)));

    /** The rate limits in force: {@link #RATES}, or none when they are switched off. */
    public List<RateRule> rates() {
        return ratesEnabled ? RATES : List.of();
    }

    private static Duration seconds(long seconds) {
        return Duration.ofSeconds(seconds);
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
