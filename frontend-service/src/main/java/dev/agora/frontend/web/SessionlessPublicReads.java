package dev.agora.frontend.web;

import dev.agora.common.security.PublicReads;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.session.web.http.SessionRepositoryFilter;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Keeps anonymous public reads ({@link PublicReads}: lookups, searches, downloads) out of Spring Session. Only the web
 * pages have sessions; a JSON read or a download never reads or writes one, even when the browser sends the pages'
 * cookie along, yet Spring Session's filter would wrap its request and response and look for a session to save when
 * it commits. Spring Session's filters skip a request already marked as filtered by them (the same mark that keeps a
 * forward or an include from being filtered twice); this filter, just before Spring Session's, sets that mark for
 * the public reads. Spring Session has no setting to leave paths out, and its filter's registration lists no paths.
 */
final class SessionlessPublicReads extends OncePerRequestFilter {

    /** Just before {@link SessionRepositoryFilter#DEFAULT_ORDER}, the order Spring Boot registers it at. */
    static final int ORDER = SessionRepositoryFilter.DEFAULT_ORDER - 1;

    static final String SESSION_FILTERED =
            SessionRepositoryFilter.class.getName() + SessionRepositoryFilter.ALREADY_FILTERED_SUFFIX;

    private final PublicReads publicReads;

    SessionlessPublicReads(PublicReads publicReads) {
        this.publicReads = publicReads;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (publicReads.matches(request)) request.setAttribute(SESSION_FILTERED, Boolean.TRUE);
        chain.doFilter(request, response);
    }
}
