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
 *
 * <p>It also holds back {@code flushBuffer()} until the handler has returned. Spring flushes after writing
 * a {@code ResponseEntity}, which commits the response before its length is known: the body then goes out
 * chunked and its terminating chunk in a second write, after every filter has unwound, and the caller
 * waits for that second write. Held back, a body that fits the container's buffer leaves in one write with
 * a {@code Content-Length}. A body larger than the buffer still streams, and a request that went async gets
 * its flushes passed through from then on. The async thread may flush before the request thread has seen that
 * the request went async, so the wrapper's state is guarded by its lock: such a flush is held for that moment,
 * then passed through, never lost.
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
            if (request.isAsyncStarted()) timed.passFlushesThrough();
            ServerTiming.end();
        }
    }

    private static final class TimedResponse extends HttpServletResponseWrapper {

        private final ServerTiming timing;
        // Guarded by this: after startAsync, the request thread and the async thread both reach them.
        private boolean added;
        private boolean passFlushes;
        private boolean flushHeld;

        TimedResponse(HttpServletResponse response, ServerTiming timing) {
            super(response);
            this.timing = timing;
        }

        synchronized void addHeader() {
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

        synchronized void passFlushesThrough() throws IOException {
            passFlushes = true;
            if (flushHeld) super.flushBuffer();
        }

        @Override
        public synchronized void flushBuffer() throws IOException {
            addHeader();
            if (passFlushes) super.flushBuffer();
            else flushHeld = true;
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
