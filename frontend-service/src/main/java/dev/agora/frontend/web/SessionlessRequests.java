package dev.agora.frontend.web;

import dev.agora.common.security.HeaderBearerTokens;
import dev.agora.common.security.PublicReads;
import dev.agora.common.security.RequestPaths;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import org.springframework.session.web.http.SessionRepositoryFilter;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Keeps requests that have no use for a session out of Spring Session: anonymous public reads ({@link PublicReads}:
 * lookups, searches, downloads) and calls of the token API (a bearer token, on any path but the pages'). Only the web
 * pages have sessions; a JSON read, a download or a token-authenticated call never reads or writes one, even when the
 * browser sends the pages' cookie along, yet Spring Session's filter would wrap its request and response and look for
 * a session to save when it commits. Spring Session's filters skip a request already marked as filtered by them (the
 * same mark that keeps a forward or an include from being filtered twice); this filter, just before Spring Session's,
 * sets that mark for these requests. Spring Session has no setting to leave paths out, and its filter's registration
 * lists no paths.
 */
final class SessionlessRequests extends OncePerRequestFilter {

    /** Just before {@link SessionRepositoryFilter#DEFAULT_ORDER}, the order Spring Boot registers it at. */
    static final int ORDER = SessionRepositoryFilter.DEFAULT_ORDER - 1;

    static final String SESSION_FILTERED =
            SessionRepositoryFilter.class.getName() + SessionRepositoryFilter.ALREADY_FILTERED_SUFFIX;

    private final PublicReads publicReads;
    private final RequestPaths pages;

    /** @param pagePaths the paths of the web pages, whose requests keep their session whatever they carry */
    SessionlessRequests(PublicReads publicReads, String... pagePaths) {
        this.publicReads = publicReads;
        this.pages = RequestPaths.of(List.of(pagePaths));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (publicReads.matches(request) || isTokenCall(request)) request.setAttribute(SESSION_FILTERED, Boolean.TRUE);
        chain.doFilter(request, response);
    }

    private boolean isTokenCall(HttpServletRequest request) {
        return HeaderBearerTokens.offersBearerToken(request) && !pages.matches(request);
    }
}
