package dev.agora.catalog.invalidation;

import dev.agora.common.web.WritingFrontend;
import java.net.URI;
import java.util.Locale;
import java.util.Optional;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * The frontend a write came through, as common's {@link WritingFrontend} header names it: that frontend drops the book
 * from its own cache when the buy's answer reaches it (before it answers its client), so the catalog does not wait for
 * its acknowledgement. A write without the header (recovery, admin) or with a frontend the catalog does not know waits
 * for every frontend.
 */
final class WriterOfRequest {

    private WriterOfRequest() {}

    /** The frontend's base URL from a header value; empty when absent or not an http(s) URL. */
    static Optional<URI> parse(String headerValue) {
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
    static Optional<URI> current() {
        if (!(RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes)) {
            return Optional.empty();
        }
        return parse(attributes.getRequest().getHeader(WritingFrontend.HEADER));
    }

    /** Whether two base URLs name the same instance (scheme, host and port; a trailing slash is ignored). */
    static boolean sameInstance(URI a, URI b) {
        return a.getScheme().equalsIgnoreCase(b.getScheme())
                && a.getHost().toLowerCase(Locale.ROOT).equals(b.getHost().toLowerCase(Locale.ROOT))
                && port(a) == port(b);
    }

    private static int port(URI uri) {
        if (uri.getPort() >= 0) return uri.getPort();
        return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    }
}
