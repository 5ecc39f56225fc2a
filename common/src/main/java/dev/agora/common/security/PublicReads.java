package dev.agora.common.security;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.RequestPath;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.util.ServletRequestPathUtils;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * The requests that read public data and carry no credentials: a {@code GET} of one of the paths a service lists
 * under {@value #PROPERTY} with no {@code Authorization} header. They need no identity, no session and no
 * authorization decision, and they are the hottest requests of the system (lookups, searches, downloads), so
 * Spring Security gives them a chain of their own ({@link AgoraSecurityAutoConfiguration#agoraPublicReads}) and the
 * frontend keeps them out of Spring Session. A read that carries a token is not one of them: it goes to the
 * resource server's chain, where a bad token is refused as everywhere. Paths are matched as Spring Security's
 * other rules are, on the normalized path the firewall let through.
 *
 * <p>It is asked twice per request on the frontend (by the filter that keeps Spring Session out and by Spring
 * Security's chain selection), so it does the cheap checks first and parses the path once, with the same
 * {@link PathPatternParser} Spring Security's {@code PathPatternRequestMatcher} uses; that matcher caches each parse
 * in a request attribute and takes it out again, per pattern, which cost a public read more than its handler lookup.
 */
public final class PublicReads implements RequestMatcher {

    /** GET paths anyone may read, comma-separated, in a service's {@code application.yml}. */
    public static final String PROPERTY = "agora.security.public-reads";

    private final List<PathPattern> paths;

    private PublicReads(List<String> patterns) {
        this.paths = patterns.stream()
                .map(String::strip)
                .map(PathPatternParser.defaultInstance::parse)
                .toList();
    }

    public static PublicReads of(List<String> patterns) {
        return new PublicReads(List.copyOf(patterns));
    }

    public static PublicReads from(Environment environment) {
        return of(Binder.get(environment)
                .bind(PROPERTY, Bindable.listOf(String.class))
                .orElse(List.of()));
    }

    @Override
    public boolean matches(HttpServletRequest request) {
        if (paths.isEmpty()
                || !HttpMethod.GET.matches(request.getMethod())
                || request.getHeader(HttpHeaders.AUTHORIZATION) != null) {
            return false;
        }
        PathContainer path = ServletRequestPathUtils.hasParsedRequestPath(request)
                ? ServletRequestPathUtils.getParsedRequestPath(request).pathWithinApplication()
                : RequestPath.parse(request.getRequestURI(), request.getContextPath())
                        .pathWithinApplication();
        for (PathPattern pattern : paths) {
            if (pattern.matches(path)) return true;
        }
        return false;
    }
}
