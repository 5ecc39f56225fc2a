package dev.agora.catalog;

import dev.agora.common.security.AccessRules;
import dev.agora.common.security.Roles;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;

/**
 * Who may call the catalog (SECURITY.md): search and lookup are public; titles, prices and stock are changed
 * by publishers and admins; reservations are for other services only (the order service's client-credentials
 * token, scope {@code internal}). Health probes and API docs are open in common's chain; anything else needs a
 * valid token. The rules match the normalized, decoded path ({@code /%61dmin/books} is {@code /admin/books});
 * the firewall before them refuses encoded slashes, dot segments, semicolons and {@code //}.
 */
@Configuration(proxyBeanMethods = false)
class CatalogAccessRules {

    /** Searches and lookups without a token are anonymous public reads, answered by common's stateless chain. */
    @Bean
    AccessRules catalogRules() {
        List<String> reads = List.of("/books", "/books/**");
        return new AccessRules.Declared(
                reads, List.of(), requests -> requests.requestMatchers(HttpMethod.GET, reads.toArray(String[]::new))
                        .permitAll()
                        .requestMatchers("/admin/**")
                        .hasAnyRole(Roles.ADMIN, Roles.PUBLISHER)
                        .requestMatchers("/internal/**")
                        .hasAuthority(Roles.INTERNAL_AUTHORITY));
    }
}
