package dev.agora.frontend.identity;

import dev.agora.common.problem.BusyPools;
import dev.agora.common.problem.ProblemResponses;
import dev.agora.common.problem.ProblemTypes;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A pool timeout thrown by the filters after this one answers 503 problem+json with {@code Retry-After}, as common's
 * {@code AgoraProblemHandler} answers one a controller throws: Spring Session and the authorization server read and
 * write the identity database in filters, outside Spring MVC, and the pool being exhausted is a bound reached, not a
 * bug. Only the frontend keeps a database behind its filters.
 */
final class BusyIdentityDatabase extends OncePerRequestFilter {

    /**
     * After the request id, Server-Timing and the limits (which refuse before anything is read), before Spring
     * Session's filter ({@code Integer.MIN_VALUE + 50}), whose database reads and writes happen outside Spring MVC.
     */
    static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 10;

    private static final Logger log = LoggerFactory.getLogger(BusyIdentityDatabase.class);

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            chain.doFilter(request, response);
        } catch (IOException | ServletException | RuntimeException failure) {
            String busy = BusyPools.busy(failure);
            if (busy == null || response.isCommitted()) throw failure;
            log.warn("{}: {}", busy, failure.getMessage());
            response.reset();
            response.setHeader("Retry-After", "1");
            ProblemResponses.write(
                    response, HttpStatus.SERVICE_UNAVAILABLE, ProblemTypes.SERVICE_UNAVAILABLE, busy + "; try again");
        }
    }
}
