package dev.agora.common.security;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.security.web.util.matcher.RequestMatcher;

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
 * Security's chain selection), so it does the cheap checks first and then matches the path with {@link RequestPaths}
 * (one parse for every pattern): Spring Security's {@code PathPatternRequestMatcher} per pattern cost a public read
 * more than its handler lookup.
 */
public final class PublicReads implements RequestMatcher {

    /** GET paths anyone may read, comma-separated, in a service's {@code application.yml}. */
    public static final String PROPERTY = "agora.security.public-reads";

    private final RequestPaths paths;

    private PublicReads(RequestPaths paths) {
        this.paths = paths;
    }

    public static PublicReads of(List<String> patterns) {
        return new PublicReads(RequestPaths.of(patterns));
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
        return paths.matches(request);
    }
}
