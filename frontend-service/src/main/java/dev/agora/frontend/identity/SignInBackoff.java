package dev.agora.frontend.identity;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.agora.common.problem.ProblemResponses;
import dev.agora.common.problem.ProblemTypes;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Locale;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Backoff per account for sign-in attempts (the web pages' {@code POST /login}: the user name; {@code POST
 * /oauth2/token}: the client id), beside common's limit per address: guesses spread over many addresses still meet
 * it. After {@link SignInBackoffSettings#freeFailures()} failed attempts in a row, an account's next attempt must
 * wait, first {@link SignInBackoffSettings#firstWait()}, doubling with every further failure up to {@link
 * SignInBackoffSettings#maxWait()}; an attempt during the wait is refused with 429 problem+json and {@code
 * Retry-After} before the secret is checked, so it neither counts nor reveals anything. A success forgets the
 * account's failures. The wait stays short on purpose: a long lockout would let anyone lock a person out by
 * guessing their name.
 *
 * <p>The outcome is read from the answer (the form sign-in redirects to {@code /login?error} on failure, the token
 * endpoint answers 401 {@code invalid_client}), which needs no hook in either of Spring Security's sign-ins. Accounts
 * are held in a bounded Caffeine cache (at most {@value #MOST_ACCOUNTS}, forgotten twice the longest wait after their
 * last failure), so a flood of invented names costs bounded memory.
 */
final class SignInBackoff extends OncePerRequestFilter {

    static final long MOST_ACCOUNTS = 100_000;
    private static final int LONGEST_NAME = 200;

    private record Failures(int count, Instant waitUntil) {}

    private final SignInBackoffSettings settings;
    private final Clock clock;
    private final Cache<String, Failures> accounts;
    private final Counter rejected;

    SignInBackoff(SignInBackoffSettings settings, Clock clock, MeterRegistry meters) {
        this.settings = settings;
        this.clock = clock;
        this.accounts = Caffeine.newBuilder()
                .maximumSize(MOST_ACCOUNTS)
                .expireAfterWrite(settings.maxWait().multipliedBy(2))
                .build();
        this.rejected = Counter.builder("agora.limits.rejected")
                .description("Requests refused with 429 by a rate limit")
                .tag("limit", "sign-in-backoff")
                .register(meters);
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !"POST".equals(request.getMethod()) || kind(request) == null;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String account = account(request);
        if (account == null) {
            chain.doFilter(request, response);
            return;
        }
        Failures failures = accounts.getIfPresent(account);
        Instant now = clock.instant();
        if (failures != null && failures.waitUntil() != null && now.isBefore(failures.waitUntil())) {
            rejected.increment();
            long seconds =
                    Math.max(1, (Duration.between(now, failures.waitUntil()).toMillis() + 999) / 1000);
            response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(seconds));
            ProblemResponses.write(
                    response,
                    HttpStatus.TOO_MANY_REQUESTS,
                    ProblemTypes.TOO_MANY_REQUESTS,
                    "Too many failed sign-ins for this account; try again in " + seconds + " s");
            return;
        }
        chain.doFilter(request, response);
        switch (outcome(request, response)) {
            case SUCCEEDED -> accounts.invalidate(account);
            case FAILED -> accounts.asMap().compute(account, (name, before) -> failed(before));
            case UNKNOWN -> {}
        }
    }

    private Failures failed(Failures before) {
        int count = before == null ? 1 : before.count() + 1;
        int over = count - settings.freeFailures();
        if (over < 0) return new Failures(count, null);
        Duration wait = settings.firstWait().multipliedBy(1L << Math.min(over, 20));
        if (wait.compareTo(settings.maxWait()) > 0) wait = settings.maxWait();
        return new Failures(count, clock.instant().plus(wait));
    }

    private enum Kind {
        FORM,
        TOKEN
    }

    private enum Outcome {
        SUCCEEDED,
        FAILED,
        UNKNOWN
    }

    private static Kind kind(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (path.equals("/login")) return Kind.FORM;
        if (path.equals("/oauth2/token")) return Kind.TOKEN;
        return null;
    }

    /** The account an attempt is for, as one key whatever its case; null when it names none. */
    static String account(HttpServletRequest request) {
        Kind kind = kind(request);
        String name = null;
        if (kind == Kind.FORM) {
            name = request.getParameter("username");
        } else if (kind == Kind.TOKEN) {
            name = basicClientId(request.getHeader(HttpHeaders.AUTHORIZATION));
            if (name == null) name = request.getParameter("client_id");
        }
        if (name == null || name.isBlank()) return null;
        name = name.strip().toLowerCase(Locale.ROOT);
        return (kind == Kind.FORM ? "user:" : "client:")
                + (name.length() > LONGEST_NAME ? name.substring(0, LONGEST_NAME) : name);
    }

    /** The client id of HTTP Basic client authentication (RFC 6749 2.3.1: form-URL-encoded before Base64). */
    private static String basicClientId(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) return null;
        try {
            String decoded = new String(
                    Base64.getDecoder().decode(authorization.substring(6).strip()), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            if (colon <= 0) return null;
            return URLDecoder.decode(decoded.substring(0, colon), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            return null;
        }
    }

    private static Outcome outcome(HttpServletRequest request, HttpServletResponse response) {
        int status = response.getStatus();
        if (kind(request) == Kind.TOKEN) {
            if (status == 200) return Outcome.SUCCEEDED;
            return status == 401 ? Outcome.FAILED : Outcome.UNKNOWN;
        }
        if (status != 302) return Outcome.UNKNOWN;
        String location = response.getHeader(HttpHeaders.LOCATION);
        if (location == null) return Outcome.UNKNOWN;
        return location.contains("/login?error") ? Outcome.FAILED : Outcome.SUCCEEDED;
    }
}
