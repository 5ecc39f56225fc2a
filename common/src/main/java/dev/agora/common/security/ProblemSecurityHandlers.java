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
 * Spring Security's refusals as RFC 9457 problem+json, like every other error of the services: 401 for a
 * missing or invalid token (with the {@code WWW-Authenticate} challenge RFC 6750 asks for), 403 for a caller
 * without the right, 400 for a request the firewall rejects (encoded slash, dot segment, semicolon, {@code //}).
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
        ProblemResponses.write(
                response,
                HttpStatus.UNAUTHORIZED,
                ProblemTypes.UNAUTHORIZED,
                badToken
                        ? "The bearer token is not valid (expired, wrongly signed or malformed)"
                        : "A bearer token is required");
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
        ProblemResponses.write(
                response,
                HttpStatus.BAD_REQUEST,
                ProblemTypes.BAD_REQUEST,
                "The request path is not allowed (encoded or doubled separators, dot segments, semicolons)");
    }
}
