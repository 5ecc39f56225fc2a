package dev.agora.common.web;

import java.net.URI;
import java.util.Locale;
import java.util.Optional;

/**
 * Names the frontend instance a buy came through, from the frontend via the order service to the catalog.
 * That frontend drops the book from its own cache when the buy's answer reaches it (before it answers its
 * client), so the catalog pushes the change to the other frontends only: one HTTP round trip fewer on every
 * buy. A write without the header (recovery, admin) or with a frontend the catalog does not know is pushed
 * to every frontend.
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
