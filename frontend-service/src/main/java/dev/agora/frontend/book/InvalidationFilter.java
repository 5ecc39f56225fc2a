package dev.agora.frontend.book;

import dev.agora.common.problem.ProblemResponses;
import dev.agora.common.problem.ProblemTypes;
import jakarta.servlet.FilterChain;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import java.io.IOException;
import java.util.Comparator;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;

/**
 * One invalidation over plain HTTP: {@code POST /internal/cache/invalidations} with a service token and an
 * {@link Invalidation} as JSON, answered 204, for an operator or a tool that drops a book by hand. Catalogs keep
 * a WebSocket open at the same path instead ({@code GET} with {@code Upgrade: websocket}, passed on to
 * {@link InvalidationSocket}). The checks are a controller's: Spring Security's (before this filter), then the body
 * bound and validated, each failure a problem+json. An unknown book is harmless: it only raises the version below
 * which answers are refused.
 */
final class InvalidationFilter extends OncePerRequestFilter {

    static final String PATH = InvalidationSocket.PATH;

    /** An invalidation is a few dozen bytes; anything much larger is not one and is not read. */
    private static final int MAX_BODY_BYTES = 4096;

    private final BookCache cache;
    private final Validator validator;
    private final ObjectReader invalidations = JsonMapper.builder().build().readerFor(Invalidation.class);

    InvalidationFilter(BookCache cache, Validator validator) {
        this.cache = cache;
        this.validator = validator;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, jakarta.servlet.ServletException {
        if ("GET".equals(request.getMethod())) {
            chain.doFilter(request, response); // a catalog's WebSocket handshake
            return;
        }
        if (!"POST".equals(request.getMethod())) {
            response.setHeader(HttpHeaders.ALLOW, "POST");
            ProblemResponses.write(
                    response,
                    HttpStatus.METHOD_NOT_ALLOWED,
                    ProblemTypes.METHOD_NOT_ALLOWED,
                    "Invalidations are POSTed");
            return;
        }
        if (request.getContentLengthLong() > MAX_BODY_BYTES) {
            ProblemResponses.write(
                    response, HttpStatus.BAD_REQUEST, ProblemTypes.BAD_REQUEST, "Request body is too large");
            return;
        }
        Invalidation invalidation;
        try {
            invalidation = invalidations.readValue(request.getInputStream().readNBytes(MAX_BODY_BYTES + 1));
        } catch (JacksonException malformed) {
            invalidation = null;
        }
        if (invalidation == null) {
            ProblemResponses.write(
                    response, HttpStatus.BAD_REQUEST, ProblemTypes.BAD_REQUEST, "Request body is missing or malformed");
            return;
        }
        Set<ConstraintViolation<Invalidation>> violations = validator.validate(invalidation);
        if (!violations.isEmpty()) {
            ProblemResponses.write(response, HttpStatus.BAD_REQUEST, ProblemTypes.VALIDATION, describe(violations));
            return;
        }
        invalidation.applyTo(cache);
        response.setStatus(HttpStatus.NO_CONTENT.value());
    }

    private static String describe(Set<ConstraintViolation<Invalidation>> violations) {
        return violations.stream()
                .sorted(Comparator.comparing(v -> v.getPropertyPath().toString()))
                .map(v -> v.getPropertyPath() + " " + v.getMessage())
                .collect(Collectors.joining("; ", "Request is invalid: ", ""));
    }
}
