package dev.agora.common.limits;

import dev.agora.common.problem.ProblemException;
import dev.agora.common.problem.ProblemResponses;
import dev.agora.common.problem.ProblemTypes;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Objects;
import org.springframework.http.HttpStatus;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingRequestWrapper;

/**
 * Refuses a request body larger than the limit with 413 problem+json: at once, unread, when its {@code Content-Length}
 * says so, and for a chunked body as soon as the handler has read one byte more than the limit (Spring MVC answers the
 * {@link ProblemException} the read throws). Paths whose handlers stream (file uploads) are exempt and enforce their
 * own limit. Written here because neither layer below offers it for every request: Tomcat's {@code maxPostSize} covers
 * only form and multipart parsing and {@code maxSwallowSize} only what it discards after a response, and Spring MVC's
 * message converters read whatever arrives.
 */
final class BodyLimitFilter extends OncePerRequestFilter {

    private final long maxBody;
    private final RequestMatcher unbounded;
    private final Counter refused;

    BodyLimitFilter(long maxBody, RequestMatcher unbounded, MeterRegistry meters) {
        this.maxBody = maxBody;
        this.unbounded = unbounded;
        this.refused = Counter.builder("agora.limits.body.rejected")
                .description("Requests refused with 413 for a body larger than the body cap")
                .register(meters);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long declared = request.getContentLengthLong();
        boolean chunked = declared < 0 && request.getHeader("Transfer-Encoding") != null;
        if ((declared <= maxBody && !chunked) || unbounded.matches(request)) {
            chain.doFilter(request, response);
        } else if (chunked) {
            chain.doFilter(new Capped(request), response);
        } else {
            refused.increment();
            // The rest of the body stays unread: the connection closes instead of being kept for the next request.
            response.setHeader("Connection", "close");
            ProblemResponses.write(
                    response, HttpStatus.CONTENT_TOO_LARGE, ProblemTypes.CONTENT_TOO_LARGE, tooLarge(request));
            // Out now: Tomcat swallows the rest of the body (up to max-swallow-size) before it completes a response.
            response.flushBuffer();
        }
    }

    private String tooLarge(HttpServletRequest request) {
        return "The request body is larger than the " + maxBody + " bytes " + request.getRequestURI() + " accepts";
    }

    /**
     * A chunked body, counted as it is read: Spring's wrapper calls {@code handleContentOverflow} once the handler has
     * read past the limit (it keeps what was read, at most the limit, in memory).
     */
    private final class Capped extends ContentCachingRequestWrapper {

        Capped(HttpServletRequest request) {
            super(request, Math.toIntExact(maxBody));
        }

        @Override
        protected void handleContentOverflow(int limit) {
            refused.increment();
            throw new ProblemException(HttpStatus.CONTENT_TOO_LARGE, ProblemTypes.CONTENT_TOO_LARGE, tooLarge(this));
        }

        /** UTF-8, not the wrapper's ISO-8859-1, when the request names none: JSON's own default. */
        @Override
        public String getCharacterEncoding() {
            return Objects.requireNonNullElse(getRequest().getCharacterEncoding(), "UTF-8");
        }
    }
}
