package dev.agora.common.web;

import java.net.URI;
import java.util.Locale;
import java.util.Optional;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Names the frontend instance a buy came through, from the frontend via the order service to the catalog, as a
 * header that travels like a request id: the frontend sets it on its order call, every replica call made while
 * handling a request passes the request's own on ({@link #propagatingInterceptor()}), and the catalog's invalidation
 * pusher reads it from the request it is handling ({@link #ofCurrentRequest()}). No use case carries it. That
 * frontend drops the book from its own cache when the buy's answer reaches it (before it answers its client), so the
 * catalog does not wait for that frontend's acknowledgement. A write without the header (recovery, admin, a hedged
 * attempt on a pooled thread) or with a frontend the catalog does not know waits for every frontend.
 */
public final class WritingFrontend {

    public static final String HEADER = "Agora-Writing-Frontend";

    private WritingFrontend() {}

    /** The frontend's base URL from a header value; empty when absent or not an http(s) URL. */
    public static Optional<URI> parse(String headerValue) {
        if (headerValue == null || headerValue.isBlank() || headerValue.length() > 200) return Optional.empty();
        try {
            URI uri = URI.create(headerValue.strip());
            String scheme = uri.getScheme();
            if (uri.getHost() == null || !("http".equals(scheme) || "https".equals(scheme))) return Optional.empty();
            return Optional.of(uri);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** The writing frontend named by the request this thread is handling; empty outside one or without it. */
    public static Optional<URI> ofCurrentRequest() {
        if (!(RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes)) {
            return Optional.empty();
        }
        return parse(attributes.getRequest().getHeader(HEADER));
    }

    /** Passes the header of the request being handled on to a call made while handling it. */
    public static ClientHttpRequestInterceptor propagatingInterceptor() {
        return (request, body, execution) -> {
            if (!request.getHeaders().containsHeader(HEADER)) {
                ofCurrentRequest().ifPresent(frontend -> request.getHeaders().set(HEADER, frontend.toString()));
            }
            return execution.execute(request, body);
        };
    }

    /** Whether two base URLs name the same instance (scheme, host and port; a trailing slash is ignored). */
    public static boolean sameInstance(URI a, URI b) {
        return a.getScheme().equalsIgnoreCase(b.getScheme())
                && a.getHost().toLowerCase(Locale.ROOT).equals(b.getHost().toLowerCase(Locale.ROOT))
                && port(a) == port(b);
    }

    private static int port(URI uri) {
        if (uri.getPort() >= 0) return uri.getPort();
        return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    }
}
