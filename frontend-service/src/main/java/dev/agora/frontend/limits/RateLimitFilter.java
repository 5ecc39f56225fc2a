package dev.agora.frontend.limits;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.agora.common.problem.ProblemResponses;
import dev.agora.common.problem.ProblemTypes;
import dev.agora.common.security.AccessRules;
import dev.agora.frontend.limits.RateLimitSettings.Per;
import dev.agora.frontend.limits.RateLimitSettings.RateRule;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The rate limits of one {@link Per kind of caller}: a Resilience4j {@link RateLimiter} per rule and caller, asked
 * without waiting; a caller over the limit gets 429 problem+json with {@code Retry-After} and the request goes no
 * further. Limiters of callers not seen for a while are dropped, and there are at most {@value #MOST_CALLERS} at a
 * time, so a flood of new addresses costs bounded memory (a dropped caller starts afresh).
 */
final class RateLimitFilter extends OncePerRequestFilter {

    static final long MOST_CALLERS = 100_000;

    private record Limit(
            RateRule rule, List<String> methods, RequestMatcher paths, RateLimiterConfig config, Counter rejected) {

        boolean appliesTo(HttpServletRequest request) {
            return (methods.isEmpty() || methods.contains(request.getMethod())) && paths.matches(request);
        }
    }

    private final Per per;
    private final List<Limit> limits;
    private final Cache<String, RateLimiter> limiters;

    RateLimitFilter(Per per, List<RateRule> rules, MeterRegistry meters) {
        this.per = per;
        this.limits = rules.stream()
                .filter(rule -> rule.per() == per)
                .map(rule -> new Limit(
                        rule,
                        rule.methods(),
                        AccessRules.anyOf(null, rule.paths()),
                        RateLimiterConfig.custom()
                                .limitForPeriod(rule.limit())
                                .limitRefreshPeriod(rule.period())
                                .timeoutDuration(Duration.ZERO)
                                .build(),
                        Counter.builder("agora.limits.rejected")
                                .description("Requests refused with 429 by a rate limit")
                                .tag("limit", rule.name())
                                .register(meters)))
                .toList();
        Duration longest = limits.stream()
                .map(limit -> limit.rule().period())
                .max(Duration::compareTo)
                .orElse(Duration.ofMinutes(1));
        this.limiters = Caffeine.newBuilder()
                .maximumSize(MOST_CALLERS)
                .expireAfterAccess(longest.multipliedBy(2))
                .build();
        meters.gauge(
                "agora.limits.callers",
                List.of(io.micrometer.core.instrument.Tag.of("per", per.name())),
                limiters,
                cache -> cache.estimatedSize());
        Gauge.builder("agora.limits.callers.capacity", () -> MOST_CALLERS)
                .description("Callers whose rate limiters are kept at most; beyond, the least recent start afresh")
                .tag("per", per.name())
                .register(meters);
    }

    boolean limitsAnything() {
        return !limits.isEmpty();
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        for (Limit limit : limits) {
            if (!limit.appliesTo(request)) continue;
            String caller = caller(request);
            RateLimiter limiter =
                    limiters.get(limit.rule().name() + ' ' + caller, key -> RateLimiter.of(key, limit.config()));
            if (!limiter.acquirePermission()) {
                limit.rejected().increment();
                refuse(response, limit.rule(), limiter);
                return;
            }
        }
        chain.doFilter(request, response);
    }

    private String caller(HttpServletRequest request) {
        if (per == Per.CALLER) {
            Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
            if (authentication instanceof JwtAuthenticationToken token) return "sub:" + token.getName();
        }
        return "address:" + AddressKeys.of(request.getRemoteAddr());
    }

    private static void refuse(HttpServletResponse response, RateRule rule, RateLimiter limiter) throws IOException {
        long nanos = limiter instanceof io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter atomic
                ? atomic.getDetailedMetrics().getNanosToWait()
                : rule.period().toNanos();
        long seconds = Math.max(1, (nanos + 999_999_999L) / 1_000_000_000L);
        response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(seconds));
        ProblemResponses.write(
                response,
                HttpStatus.TOO_MANY_REQUESTS,
                ProblemTypes.TOO_MANY_REQUESTS,
                "Too many requests of this kind (" + rule.name() + "): at most " + rule.limit() + " per "
                        + rule.period().toSeconds() + " s; try again in " + seconds + " s");
    }
}
