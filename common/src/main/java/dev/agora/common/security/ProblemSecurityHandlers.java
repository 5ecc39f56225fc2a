package dev.agora.common.security;

import dev.agora.common.problem.ProblemResponses;
import dev.agora.common.problem.ProblemTypes;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.server.resource.InvalidBearerTokenException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.RequestRejectedHandler;

/**
 * Spring Security's refusals as RFC 9457 problem+json like other errors: 401 for a missing or invalid token (with RFC
 * 6750's {@code WWW-Authenticate} challenge), 403 for a caller lacking the right, 400 for a path the firewall rejects.
 */
public final class ProblemSecurityHandlers
        implements AuthenticationEntryPoint, AccessDeniedHandler, RequestRejectedHandler {

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException failure)
            throws IOException {
        if (response.isCommitted()) return;
        boolean badToken = failure instanceof InvalidBearerTokenException;
        response.setHeader(
                HttpHeaders.WWW_AUTHENTICATE, badToken ? "Bearer error=\"invalid_token\"" : "Bearer realm=\"agora\"");
        String detail = badToken
                ? "The bearer token is not valid (expired, wrongly signed or malformed)"
                : "A bearer token is required";
        ProblemResponses.write(response, HttpStatus.UNAUTHORIZED, ProblemTypes.UNAUTHORIZED, detail);
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException denied)
            throws IOException {
        if (response.isCommitted()) return;
        ProblemResponses.write(response, HttpStatus.FORBIDDEN, ProblemTypes.FORBIDDEN, "The caller may not do this");
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, RequestRejectedException rejected)
            throws IOException {
        if (response.isCommitted()) return;
        String detail = "The request path is not allowed (encoded or doubled separators, dot segments, semicolons)";
        ProblemResponses.write(response, HttpStatus.BAD_REQUEST, ProblemTypes.BAD_REQUEST, detail);
    }
}
