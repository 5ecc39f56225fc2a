package dev.agora.frontend.upstream;

import dev.agora.common.web.WritingFrontend;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import java.util.Enumeration;
import org.springframework.core.Ordered;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Hides a client's own {@link WritingFrontend#HEADER} from everything behind this filter. The header tells the catalog
 * which frontend a write came through, so that it need not wait for that frontend's cache invalidation; common's
 * replica clients pass the handled request's header on to every call made for it. A client that named a frontend
 * would make the catalog skip waiting for that frontend, which could then serve a stale book. Only this frontend
 * names itself, on its own calls ({@code OrderClient}); the compose edge drops the header as well.
 */
final class ClientsNameNoWriter extends OncePerRequestFilter {

    /** Before everything else, Spring's request context among them, so no later code sees the client's header. */
    static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 10;

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        chain.doFilter(
                request.getHeader(WritingFrontend.HEADER) == null ? request : new WithoutWriter(request), response);
    }

    private static final class WithoutWriter extends HttpServletRequestWrapper {

        WithoutWriter(HttpServletRequest request) {
            super(request);
        }

        @Override
        public String getHeader(String name) {
            return isWriter(name) ? null : super.getHeader(name);
        }

        @Override
        public Enumeration<String> getHeaders(String name) {
            return isWriter(name) ? Collections.emptyEnumeration() : super.getHeaders(name);
        }

        @Override
        public Enumeration<String> getHeaderNames() {
            return Collections.enumeration(Collections.list(super.getHeaderNames()).stream()
                    .filter(name -> !isWriter(name))
                    .toList());
        }

        @Override
        public long getDateHeader(String name) {
            return isWriter(name) ? -1 : super.getDateHeader(name);
        }

        @Override
        public int getIntHeader(String name) {
            return isWriter(name) ? -1 : super.getIntHeader(name);
        }

        private static boolean isWriter(String name) {
            return WritingFrontend.HEADER.equalsIgnoreCase(name);
        }
    }
}
