package dev.agora.common.limits;

import dev.agora.common.problem.ProblemResponses;
import dev.agora.common.problem.ProblemTypes;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.springframework.http.HttpStatus;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses a request body larger than the limit with 413 problem+json, without reading it: at once when its
 * {@code Content-Length} says so, and for a chunked body as soon as it has sent one byte more than the limit (the
 * few kilobytes up to the limit are held, as the handler would read them anyway). Paths whose handlers stream
 * (file uploads) are exempt and enforce their own limit.
 *
 * <p>Written here because neither layer below offers it for every request: Tomcat's {@code maxPostSize} covers only
 * form and multipart parsing and {@code maxSwallowSize} only what it discards after a response, and Spring MVC's
 * message converters read whatever arrives.
 */
final class BodyLimitFilter extends OncePerRequestFilter {

    private final long maxBody;
    private final RequestMatcher unbounded;
    private final Counter refused;

    BodyLimitFilter(long maxBody, RequestMatcher unbounded, MeterRegistry meters) {
        this.maxBody = maxBody;
        this.unbounded = unbounded;
        this.refused = Counter.builder("agora.limits.body.rejected")
                .description("Requests refused with 413 for a body larger than agora.limits.max-body")
                .register(meters);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long declared = request.getContentLengthLong();
        boolean chunked = declared < 0 && request.getHeader("Transfer-Encoding") != null;
        if ((declared <= maxBody && !chunked) || unbounded.matches(request)) {
            chain.doFilter(request, response);
            return;
        }
        if (declared > maxBody) {
            refuse(request, response);
            return;
        }
        byte[] body = request.getInputStream().readNBytes((int) maxBody + 1);
        if (body.length > maxBody) {
            refuse(request, response);
            return;
        }
        chain.doFilter(new HeldBody(request, body), response);
    }

    private void refuse(HttpServletRequest request, HttpServletResponse response) throws IOException {
        refused.increment();
        // The rest of the body stays unread: the connection closes instead of being kept for the next request.
        response.setHeader("Connection", "close");
        ProblemResponses.write(
                response,
                HttpStatus.CONTENT_TOO_LARGE,
                ProblemTypes.CONTENT_TOO_LARGE,
                "The request body is larger than the " + maxBody + " bytes " + request.getRequestURI() + " accepts");
        // Out now: Tomcat reads (swallows) what is left of the body, up to its max-swallow-size, before it
        // completes a response itself.
        response.flushBuffer();
    }

    /** A chunked body that fit the limit, handed on as if it had just arrived. */
    private static final class HeldBody extends HttpServletRequestWrapper {

        private final byte[] body;

        HeldBody(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }

        @Override
        public ServletInputStream getInputStream() {
            InputStream bytes = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() throws IOException {
                    return bytes.read();
                }

                @Override
                public int read(byte[] buffer, int offset, int length) throws IOException {
                    return bytes.read(buffer, offset, length);
                }

                @Override
                public boolean isFinished() {
                    return available() == 0;
                }

                @Override
                public int available() {
                    try {
                        return bytes.available();
                    } catch (IOException impossible) {
                        return 0;
                    }
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new UnsupportedOperationException("The body was already read");
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            String encoding = getCharacterEncoding();
            Charset charset = encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
            return new BufferedReader(new InputStreamReader(getInputStream(), charset));
        }
    }
}
