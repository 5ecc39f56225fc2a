package dev.agora.common.security;

import java.util.List;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AuthorizeHttpRequestsConfigurer;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * A service's own authorization rules, added to common's filter chain after the health and API-doc paths
 * and before its closing rule (any other request must be authenticated). Rules match the normalized path:
 * the firewall has already refused encoded slashes, dots, semicolons and {@code //}. The paths a feature serves
 * are its code's to name, not a deployment's, so the two lists below are here rather than in settings.
 */
public interface AccessRules {

    void apply(AuthorizeHttpRequestsConfigurer<HttpSecurity>.AuthorizationManagerRequestMatcherRegistry requests);

    /**
     * GET paths anyone may read without a token, answered by a stateless chain of their own ({@link
     * AgoraSecurityAutoConfiguration#publicReads}); {@link #apply} must open them too, so the answer never depends on
     * the chain.
     */
    default List<String> publicReads() {
        return List.of();
    }

    /**
     * Paths whose handlers stream their bodies under a limit of their own (file uploads), exempt from the body cap
     * ({@code LimitsAutoConfiguration}).
     */
    default List<String> unboundedBodyPaths() {
        return List.of();
    }

    /** Spring Security's path matchers for {@code method} (null: any), as its rules match; none: no request. */
    static RequestMatcher anyOf(HttpMethod method, List<String> patterns) {
        if (patterns.isEmpty()) return request -> false;
        return new OrRequestMatcher(patterns.stream()
                .map(pattern -> (RequestMatcher)
                        PathPatternRequestMatcher.withDefaults().matcher(method, pattern.strip()))
                .toList());
    }

    /** {@code rules} with the GET paths they open to anyone as public reads, and the paths they let stream bodies. */
    record Declared(List<String> publicReads, List<String> unboundedBodyPaths, AccessRules rules)
            implements AccessRules {

        @Override
        public void apply(
                AuthorizeHttpRequestsConfigurer<HttpSecurity>.AuthorizationManagerRequestMatcherRegistry requests) {
            rules.apply(requests);
        }
    }
}
