package dev.agora.catalog;

import dev.agora.common.security.AccessRules;
import dev.agora.common.security.Roles;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AuthorizeHttpRequestsConfigurer;

/**
 * Who may call the catalog (SECURITY.md): search and lookup are public; titles, prices and stock are changed
 * by publishers and admins; reservations are for other services only (the order service's client-credentials
 * token, scope {@code internal}). Health probes and API docs are open in common's chain; anything else needs a
 * valid token. The rules match the normalized, decoded path ({@code /%61dmin/books} is {@code /admin/books});
 * the firewall before them refuses encoded slashes, dot segments, semicolons and {@code //}.
 */
@Configuration(proxyBeanMethods = false)
class CatalogAccessRules {

    /** Searches and lookups anyone may send without a token, answered by common's stateless chain. */
    private static final List<String> PUBLIC_READS = List.of("/books", "/books/**");

    @Bean
    AccessRules catalogRules() {
        return new AccessRules() {
            @Override
            public void apply(
                    AuthorizeHttpRequestsConfigurer<HttpSecurity>.AuthorizationManagerRequestMatcherRegistry requests) {
                requests.requestMatchers(HttpMethod.GET, PUBLIC_READS.toArray(String[]::new))
                        .permitAll()
                        .requestMatchers("/admin/**")
                        .hasAnyRole(Roles.ADMIN, Roles.PUBLISHER)
                        .requestMatchers("/internal/**")
                        .hasAuthority(Roles.INTERNAL_AUTHORITY);
            }

            @Override
            public List<String> publicReads() {
                return PUBLIC_READS;
            }
        };
    }
}
