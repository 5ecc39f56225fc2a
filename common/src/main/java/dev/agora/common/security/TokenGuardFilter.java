package dev.agora.common.security;

import dev.agora.common.problem.ProblemResponses;
import dev.agora.common.problem.ProblemTypes;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Guards a path prefix with a shared token in a request header: {@code /internal/**} with the internal
 * token (service to service), {@code /admin/**} with the admin token. Missing token: 401; wrong: 403.
 */
public final class TokenGuardFilter extends OncePerRequestFilter {

    public static final String INTERNAL_TOKEN_HEADER = "X-Internal-Token";
    public static final String ADMIN_TOKEN_HEADER = "X-Admin-Token";

    private final String pathPrefix;
    private final String header;
    private final byte[] expected;

    public TokenGuardFilter(String pathPrefix, String header, String expectedToken) {
        this.pathPrefix = pathPrefix;
        this.header = header;
        this.expected = expectedToken.getBytes(StandardCharsets.UTF_8);
    }

    public static TokenGuardFilter internal(AgoraSecurityProperties properties) {
        return new TokenGuardFilter("/internal/", INTERNAL_TOKEN_HEADER, properties.internalToken());
    }

    public static TokenGuardFilter admin(AgoraSecurityProperties properties) {
        return new TokenGuardFilter("/admin/", ADMIN_TOKEN_HEADER, properties.adminToken());
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        return !(path.startsWith(pathPrefix) || path.equals(pathPrefix.substring(0, pathPrefix.length() - 1)));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String given = request.getHeader(header);
        if (given == null || given.isEmpty()) {
            ProblemResponses.write(
                    response, HttpStatus.UNAUTHORIZED, ProblemTypes.UNAUTHORIZED, "Header " + header + " is required");
            return;
        }
        // Constant-time comparison: response timing must not reveal how much of the token matched.
        if (!MessageDigest.isEqual(expected, given.getBytes(StandardCharsets.UTF_8))) {
            ProblemResponses.write(response, HttpStatus.FORBIDDEN, ProblemTypes.FORBIDDEN, "Token is not valid");
            return;
        }
        chain.doFilter(request, response);
    }
}
