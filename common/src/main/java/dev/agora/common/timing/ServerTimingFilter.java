package dev.agora.common.timing;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.PrintWriter;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Puts a {@code Server-Timing} header on every response. The header has to go out with the status line,
 * so it is added at the last moment before the body starts (or when the request ends without a body).
 */
public final class ServerTimingFilter extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        TimedResponse timed = new TimedResponse(response, ServerTiming.begin());
        try {
            chain.doFilter(request, timed);
        } finally {
            timed.addHeader();
            ServerTiming.end();
        }
    }

    private static final class TimedResponse extends HttpServletResponseWrapper {

        private final ServerTiming timing;
        private boolean added;

        TimedResponse(HttpServletResponse response, ServerTiming timing) {
            super(response);
            this.timing = timing;
        }

        void addHeader() {
            if (added || isCommitted()) return;
            added = true;
            setHeader(ServerTiming.HEADER, timing.header());
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            addHeader();
            return super.getOutputStream();
        }

        @Override
        public PrintWriter getWriter() throws IOException {
            addHeader();
            return super.getWriter();
        }

        @Override
        public void flushBuffer() throws IOException {
            addHeader();
            super.flushBuffer();
        }

        @Override
        public void sendError(int status, String message) throws IOException {
            addHeader();
            super.sendError(status, message);
        }

        @Override
        public void sendError(int status) throws IOException {
            addHeader();
            super.sendError(status);
        }
    }
}
