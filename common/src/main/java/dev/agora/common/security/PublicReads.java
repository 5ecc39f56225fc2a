package dev.agora.common.security;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * The requests that read public data and carry no credentials: a {@code GET} of one of the paths a service lists
 * under {@value #PROPERTY} with no {@code Authorization} header. They need no identity, no session and no
 * authorization decision, and they are the hottest requests of the system (lookups, searches, downloads), so
 * Spring Security gives them a chain of their own ({@link AgoraSecurityAutoConfiguration#agoraPublicReads}) and the
 * frontend keeps them out of Spring Session. A read that carries a token is not one of them: it goes to the
 * resource server's chain, where a bad token is refused as everywhere. Paths are matched as Spring Security's
 * other rules are, on the normalized path the firewall let through.
 */
public final class PublicReads implements RequestMatcher {

    /** GET paths anyone may read, comma-separated, in a service's {@code application.yml}. */
    public static final String PROPERTY = "agora.security.public-reads";

    private final RequestMatcher paths;

    private PublicReads(List<String> patterns) {
        this.paths = patterns.isEmpty()
                ? request -> false
                : new OrRequestMatcher(patterns.stream()
                        .map(String::strip)
                        .map(path -> (RequestMatcher)
                                PathPatternRequestMatcher.withDefaults().matcher(HttpMethod.GET, path))
                        .toList());
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
        return request.getHeader(HttpHeaders.AUTHORIZATION) == null && paths.matches(request);
    }
}
