package dev.agora.common.limits;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/** Request path patterns ({@code /api/orders}, {@code /buy/**}), matched on the path within the application. */
final class PathPatterns {

    private final List<PathPattern> patterns;

    PathPatterns(List<String> patterns) {
        this.patterns =
                patterns.stream().map(PathPatternParser.defaultInstance::parse).toList();
    }

    boolean matches(HttpServletRequest request) {
        if (patterns.isEmpty()) return false;
        String uri = request.getRequestURI().substring(request.getContextPath().length());
        PathContainer path = PathContainer.parsePath(uri);
        for (PathPattern pattern : patterns) {
            if (pattern.matches(path)) return true;
        }
        return false;
    }
}
