package dev.agora.common.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.UUID;
import java.util.regex.Pattern;
import org.slf4j.MDC;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Request-id propagation: every request carries an {@code X-Request-Id} (the caller's when sane, else a new one),
 * logged through the MDC, echoed on the response, and forwarded on calls made with {@link #propagatingInterceptor()}.
 */
public final class RequestIds {

    public static final String HEADER = "X-Request-Id";
    public static final String MDC_KEY = "requestId";
    private static final Pattern SANE = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

    private RequestIds() {}

    public static OncePerRequestFilter filter() {
        return new OncePerRequestFilter() {
            @Override
            protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                    throws ServletException, IOException {
                String given = request.getHeader(HEADER);
                String id = given != null && SANE.matcher(given).matches()
                        ? given
                        : UUID.randomUUID().toString();
                MDC.put(MDC_KEY, id);
                response.setHeader(HEADER, id);
                try {
                    chain.doFilter(request, response);
                } finally {
                    MDC.remove(MDC_KEY);
                }
            }
        };
    }

    public static ClientHttpRequestInterceptor propagatingInterceptor() {
        return (request, body, execution) -> {
            String id = MDC.get(MDC_KEY);
            if (id != null && !request.getHeaders().containsHeader(HEADER)) {
                request.getHeaders().set(HEADER, id);
            }
            return execution.execute(request, body);
        };
    }
}
