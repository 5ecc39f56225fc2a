package dev.agora.common.problem;

import java.net.URI;
import org.springframework.http.HttpStatusCode;

/** Stable problem {@code type} URIs; clients may switch on them, so they never change once published. */
public final class ProblemTypes {

    public static final String BASE = "https://agora.dev/problems/";

    public static final URI BAD_REQUEST = of("bad-request");
    public static final URI VALIDATION = of("validation");
    public static final URI NOT_FOUND = of("not-found");
    public static final URI OUT_OF_STOCK = of("out-of-stock");
    public static final URI CONFLICT = of("conflict");
    public static final URI UNAUTHORIZED = of("unauthorized");
    public static final URI FORBIDDEN = of("forbidden");
    public static final URI METHOD_NOT_ALLOWED = of("method-not-allowed");
    public static final URI UNSUPPORTED_MEDIA_TYPE = of("unsupported-media-type");
    public static final URI SERVICE_UNAVAILABLE = of("service-unavailable");
    /**
     * 503 from an instance that refused the request before applying any of it (a standby, a deposed leader): the
     * same request may be sent again, to it or another instance, even when it is not idempotent.
     */
    public static final URI NOT_APPLIED = of("not-applied");

    public static final URI CONTENT_TOO_LARGE = of("content-too-large");
    public static final URI TOO_MANY_REQUESTS = of("too-many-requests");
    public static final URI INTERNAL = of("internal");

    private ProblemTypes() {}

    public static URI of(String slug) {
        return URI.create(BASE + slug);
    }

    /** The type of an answer that has no more specific one, by its status. */
    public static URI of(HttpStatusCode status) {
        return switch (status.value()) {
            case 401 -> UNAUTHORIZED;
            case 403 -> FORBIDDEN;
            case 404 -> NOT_FOUND;
            case 405 -> METHOD_NOT_ALLOWED;
            case 409 -> CONFLICT;
            case 413 -> CONTENT_TOO_LARGE;
            case 415 -> UNSUPPORTED_MEDIA_TYPE;
            case 429 -> TOO_MANY_REQUESTS;
            case 503 -> SERVICE_UNAVAILABLE;
            default -> status.is4xxClientError() ? BAD_REQUEST : INTERNAL;
        };
    }
}
