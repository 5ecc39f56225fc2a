package dev.agora.frontend.web;

import dev.agora.common.security.PublicReads;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.springframework.http.HttpHeaders;
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
    /** The pages' exact paths, and the prefixes of their {@code /**} patterns (each with its trailing slash). */
    private final Set<String> pagePaths = new HashSet<>();

    private final List<String> pagePrefixes = new ArrayList<>();

    /**
     * @param pagePaths the paths of the web pages, whose requests keep their session whatever they carry: exact paths
     *     and {@code /**} patterns, matched against the request's path as a plain string (path patterns cost a
     *     token-API call more than Spring Session's wrapping saved; a path they would read differently, encoded or
     *     with a semicolon, is refused by the firewall anyway)
     */
    SessionlessRequests(PublicReads publicReads, String... pagePaths) {
        this.publicReads = publicReads;
        for (String path : pagePaths) {
            if (path.endsWith("/**")) {
                String directory = path.substring(0, path.length() - "/**".length());
                this.pagePaths.add(directory);
                this.pagePrefixes.add(directory + "/");
            } else if (path.contains("*") || path.contains("{")) {
                throw new IllegalArgumentException("Only exact paths and /** patterns: " + path);
            } else {
                this.pagePaths.add(path);
            }
        }
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (publicReads.matches(request) || isTokenCall(request)) request.setAttribute(SESSION_FILTERED, Boolean.TRUE);
        chain.doFilter(request, response);
    }

    private boolean isTokenCall(HttpServletRequest request) {
        String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
        return authorization != null
                && authorization.regionMatches(true, 0, "Bearer ", 0, 7)
                && !isPage(request.getRequestURI());
    }

    private boolean isPage(String path) {
        if (pagePaths.contains(path)) return true;
        for (String prefix : pagePrefixes) {
            if (path.startsWith(prefix)) return true;
        }
        return false;
    }
}
