package dev.agora.common.problem;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.SQLTransientConnectionException;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A pool that had no connection free within its wait is a bound reached, not a bug: the caller gets 503 problem+json
 * with {@code Retry-After}. {@link AgoraProblemHandler} answers so for what controllers throw; {@link #filter()}
 * does for what filters throw around them, such as Spring Session reading or saving a session in the database.
 */
public final class BusyPools {

    private static final Logger log = LoggerFactory.getLogger(BusyPools.class);

    private BusyPools() {}

    /**
     * What was busy when a pooled connection did not come in time, whichever exception wraps the timeout: Hikari's
     * (the database) or HttpClient 5's (another service or an object store); null for any other failure.
     */
    public static String busy(Throwable error) {
        for (Throwable cause = error; cause != null && cause.getCause() != cause; cause = cause.getCause()) {
            if (cause instanceof SQLTransientConnectionException)
                return "The service is too busy to reach its database";
            if (cause instanceof ConnectionRequestTimeoutException) {
                return "The service is too busy: all its connections to a store or service are in use";
            }
        }
        return null;
    }

    /** Answers 503 for a pool timeout thrown by the filters after it, while nothing of the answer was sent. */
    public static OncePerRequestFilter filter() {
        return new OncePerRequestFilter() {
            @Override
            protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                    throws ServletException, IOException {
                try {
                    chain.doFilter(request, response);
                } catch (IOException | ServletException | RuntimeException failure) {
                    String busy = busy(failure);
                    if (busy == null || response.isCommitted()) throw failure;
                    log.warn("{}: {}", busy, failure.getMessage());
                    response.reset();
                    response.setHeader("Retry-After", "1");
                    ProblemResponses.write(
                            response,
                            HttpStatus.SERVICE_UNAVAILABLE,
                            ProblemTypes.SERVICE_UNAVAILABLE,
                            busy + "; try again");
                }
            }
        };
    }
}
