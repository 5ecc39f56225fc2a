package dev.agora.common.security;

import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AuthorizeHttpRequestsConfigurer;

/**
 * A service's own authorization rules, added to common's filter chain after the health and API-doc paths
 * and before its closing rule (any other request must be authenticated). Rules match the normalized path:
 * the firewall has already refused encoded slashes, dots, semicolons and {@code //}.
 */
@FunctionalInterface
public interface AccessRules {

    void apply(AuthorizeHttpRequestsConfigurer<HttpSecurity>.AuthorizationManagerRequestMatcherRegistry requests);
}
