package dev.agora.common.web;

import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Names the frontend instance a buy came through, from the frontend via the order service to the catalog, as a header
 * that travels like a request id: the frontend sets it on its order call, and every replica call made while handling a
 * request passes the request's own on ({@link #propagatingInterceptor()}), as it came. The catalog alone reads it (its
 * invalidation pusher leaves that frontend out of the acknowledgements it waits for); no use case carries it.
 */
public final class WritingFrontend {

    public static final String HEADER = "Agora-Writing-Frontend";

    private WritingFrontend() {}

    public static ClientHttpRequestInterceptor propagatingInterceptor() {
        return (request, body, execution) -> {
            if (!request.getHeaders().containsHeader(HEADER)
                    && RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes) {
                String frontend = attributes.getRequest().getHeader(HEADER);
                if (frontend != null) request.getHeaders().set(HEADER, frontend);
            }
            return execution.execute(request, body);
        };
    }
}
