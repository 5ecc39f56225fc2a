package dev.agora.exchange.desk;

import dev.agora.common.security.AccessRules;
import dev.agora.common.security.Roles;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AuthorizeHttpRequestsConfigurer;
import org.springframework.stereotype.Component;

/**
 * The desk's reads are for traders and admins: one's own accounts (filtered by the token's subject, so nobody sees
 * another's), and the order books, which every trader sees (prices and sizes, no accounts). Ordered before the API's
 * own rules, whose last one closes everything else under {@code /api/exchange} to all but admins.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class DeskAccessRules implements AccessRules {

    @Override
    public void apply(
            AuthorizeHttpRequestsConfigurer<HttpSecurity>.AuthorizationManagerRequestMatcherRegistry requests) {
        requests.requestMatchers(HttpMethod.GET, "/api/exchange/me", "/api/exchange/symbols/*/book")
                .hasAnyRole(Roles.TRADER, Roles.ADMIN);
    }
}
