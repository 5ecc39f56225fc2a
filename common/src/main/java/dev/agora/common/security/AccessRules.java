package dev.agora.common.security;

import java.util.List;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AuthorizeHttpRequestsConfigurer;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * A service's own authorization rules, between common's health and API-doc paths and its closing rule (anything else
 * needs authentication), on the normalized path: the firewall has already refused encoded slashes, dots, semicolons and
 * {@code //}. A feature's paths are its code's to name, not a deployment's, hence these lists rather than settings.
 */
public interface AccessRules {

    void apply(AuthorizeHttpRequestsConfigurer<HttpSecurity>.AuthorizationManagerRequestMatcherRegistry requests);

    /**
     * {@link AgoraSecurityAutoConfiguration#agoraPublicReads}, a stateless chain of their own, answers these GET paths
     * anyone may read without a token; {@link #apply} must open them too, so no answer depends on the chain.
     */
    default List<String> publicReads() {
        return List.of();
    }

    /**
     * Upload paths, whose handlers stream bodies under their own limit: no body cap ({@code LimitsAutoConfiguration}).
     */
    default List<String> unboundedBodyPaths() {
        return List.of();
    }

    /** Spring Security's path matchers for {@code method} (null: any), as its rules match; none: no request. */
    static RequestMatcher anyOf(HttpMethod method, List<String> patterns) {
        if (patterns.isEmpty()) return request -> false;
        return new OrRequestMatcher(patterns.stream()
                .map(pattern -> PathPatternRequestMatcher.withDefaults().matcher(method, pattern.strip()))
                .toArray(RequestMatcher[]::new));
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
