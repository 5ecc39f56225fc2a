package dev.agora.order;

import dev.agora.common.security.AccessRules;
import dev.agora.common.security.Roles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;

/**
 * Who may call the order service (SECURITY.md): customers buy, and so do services (a frontend's anonymous
 * classic buy, with its own client-credentials token, scope {@code internal}); any authenticated caller may read,
 * and sees its own orders only ({@code OrderController}), an admin every order; the raffle's winners are for any
 * authenticated caller (the frontend shows them to everyone). Health probes and API docs are
 * open in common's chain; anything else needs a valid token. The rules match the normalized, decoded path; the
 * firewall before them refuses encoded slashes, dot segments, semicolons and {@code //}.
 */
@Configuration(proxyBeanMethods = false)
class OrderAccessRules {

    @Bean
    AccessRules orderRules() {
        return requests -> requests.requestMatchers(HttpMethod.POST, "/orders")
                .hasAnyAuthority("ROLE_" + Roles.CUSTOMER, Roles.INTERNAL_AUTHORITY)
                .requestMatchers(HttpMethod.GET, "/orders", "/orders/**")
                .authenticated()
                .requestMatchers(HttpMethod.GET, "/raffle/winners")
                .authenticated();
    }
}
