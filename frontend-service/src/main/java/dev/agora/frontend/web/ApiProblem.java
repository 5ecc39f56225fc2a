package dev.agora.frontend.web;

import java.util.Map;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * What the public API answered instead of what a page asked for: its status and problem (RFC 9457), or 503 when no
 * answer came. Pages turn it into a message a person understands ({@link PageErrors}).
 */
public final class ApiProblem extends RuntimeException {

    private final int status;
    private final String type;
    private final Map<String, Object> properties;

    public ApiProblem(int status, String type, String detail, Map<String, Object> properties) {
        super(detail, null, false, false);
        this.status = status;
        this.type = type == null ? "about:blank" : type;
        this.properties = properties == null ? Map.of() : Map.copyOf(properties);
    }

    /**
     * A failure of an in-process call to the tiers (the cached lookup and search), as the API would have answered
     * it: the tier's problem, or 503; anything else is a bug and stays what it is.
     */
    public static RuntimeException from(RuntimeException failure) {
        if (failure instanceof ApiProblem problem) return problem;
        if (failure instanceof ErrorResponseException answered) {
            ProblemDetail body = answered.getBody();
            return new ApiProblem(
                    answered.getStatusCode().value(),
                    body.getType().toString(),
                    body.getDetail(),
                    body.getProperties());
        }
        return failure;
    }

    /** This frontend itself cannot take more of something now (503). */
    public static ApiProblem unavailableForNow(String detail) {
        return unavailable(detail);
    }

    static ApiProblem unavailable(String detail) {
        return new ApiProblem(503, null, detail, Map.of());
    }

    public int status() {
        return status;
    }

    /** The problem type, e.g. {@code https://agora.dev/problems/out-of-stock}. */
    public String type() {
        return type;
    }

    public boolean typeEndsWith(String suffix) {
        return type.endsWith(suffix);
    }

    public String detail() {
        return getMessage();
    }

    public Object property(String name) {
        return properties.get(name);
    }

    public boolean isUnavailable() {
        return status == 503 || status == 502 || status == 504;
    }
}
