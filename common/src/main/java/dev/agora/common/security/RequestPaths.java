package dev.agora.common.security;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.RequestPath;
import org.springframework.web.util.ServletRequestPathUtils;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * Whether a request's path matches one of a few path patterns, as Spring Security's {@code PathPatternRequestMatcher}
 * decides it (the same {@link PathPatternParser}, on the path within the application), for filters asked on every
 * request: the path is parsed once for all the patterns, where an {@code OrRequestMatcher} of Spring Security's
 * matchers caches each parse in a request attribute and takes it out again, per pattern.
 */
public final class RequestPaths {

    private final List<PathPattern> patterns;

    private RequestPaths(List<String> patterns) {
        this.patterns = patterns.stream()
                .map(String::strip)
                .map(PathPatternParser.defaultInstance::parse)
                .toList();
    }

    public static RequestPaths of(List<String> patterns) {
        return new RequestPaths(List.copyOf(patterns));
    }

    public boolean isEmpty() {
        return patterns.isEmpty();
    }

    public boolean matches(HttpServletRequest request) {
        if (patterns.isEmpty()) return false;
        PathContainer path = ServletRequestPathUtils.hasParsedRequestPath(request)
                ? ServletRequestPathUtils.getParsedRequestPath(request).pathWithinApplication()
                : RequestPath.parse(request.getRequestURI(), request.getContextPath())
                        .pathWithinApplication();
        for (PathPattern pattern : patterns) {
            if (pattern.matches(path)) return true;
        }
        return false;
    }
}
