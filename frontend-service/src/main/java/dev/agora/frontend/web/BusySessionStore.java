package dev.agora.frontend.web;

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
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Spring Session reads and saves the pages' sessions in the identity database from a filter, outside Spring MVC, so
 * a pool that had no connection free in time would end there as a 500: this answers it as common's problem handler
 * answers a controller's, 503 problem+json with {@code Retry-After} ({@link BusyPools}), while nothing of the answer
 * was sent.
 */
@Configuration(proxyBeanMethods = false)
class BusySessionStore {

    private static final Logger log = LoggerFactory.getLogger(BusySessionStore.class);

    /**
     * After common's request id, Server-Timing and body limit filters (which refuse before anything is read), before
     * Spring Session's filter ({@code Integer.MIN_VALUE + 50}).
     */
    @Bean
    FilterRegistrationBean<?> busySessionStoreFilter() {
        var registration = new FilterRegistrationBean<>(new OncePerRequestFilter() {
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
                            response,
                            HttpStatus.SERVICE_UNAVAILABLE,
                            ProblemTypes.SERVICE_UNAVAILABLE,
                            busy + "; try again");
                }
            }
        });
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
        return registration;
    }
}
