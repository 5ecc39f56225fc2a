package dev.agora.frontend.identity;

import dev.agora.common.security.AccessRules;
import dev.agora.common.security.Roles;
import java.util.List;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AuthorizeHttpRequestsConfigurer;
import org.springframework.stereotype.Component;

/**
 * Who may call what on the public API (SECURITY.md has the table). Reads of the catalog and the seed's classic
 * routes are open; a buy through the API and order reads need a customer (the order service then checks whose
 * order it is); admin calls need a publisher or admin; the exchange needs a signed-in caller (it checks account
 * ownership itself); invalidations need a service token.
 */
@Component
class FrontendAccessRules implements AccessRules {

    /** Catalog reads anyone may send without a token, answered by common's stateless chain. */
    private static final List<String> PUBLIC_READS = List.of("/api/books", "/api/books/*", "/search/*", "/lookup/*");

    @Override
    public List<String> publicReads() {
        return PUBLIC_READS;
    }

    @Override
    public void apply(
            AuthorizeHttpRequestsConfigurer<HttpSecurity>.AuthorizationManagerRequestMatcherRegistry requests) {
        requests.requestMatchers(HttpMethod.GET, PUBLIC_READS.toArray(String[]::new))
                .permitAll()
                .requestMatchers(HttpMethod.POST, "/buy/*")
                .permitAll()
                // Not an OpenID provider (no sign-in of people by redirect, no ID tokens): clients that look for its
                // document first, as OIDC-aware libraries do, get 404 and go on to the OAuth2 metadata.
                .requestMatchers(HttpMethod.GET, "/.well-known/openid-configuration")
                .permitAll()
                .requestMatchers(HttpMethod.POST, "/api/orders")
                .hasRole(Roles.CUSTOMER)
                .requestMatchers("/api/orders", "/api/orders/**")
                .authenticated()
                .requestMatchers("/api/admin/**")
                .hasAnyRole(Roles.ADMIN, Roles.PUBLISHER)
                .requestMatchers("/api/exchange/**")
                .authenticated()
                .requestMatchers("/internal/**")
                .hasAuthority(Roles.INTERNAL_AUTHORITY);
    }
}
