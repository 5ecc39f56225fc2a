package dev.agora.common.security;

import java.util.List;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AuthorizeHttpRequestsConfigurer;

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
