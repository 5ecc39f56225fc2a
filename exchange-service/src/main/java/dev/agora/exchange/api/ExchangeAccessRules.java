package dev.agora.exchange.api;

import dev.agora.common.security.AccessRules;
import dev.agora.common.security.Roles;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AuthorizeHttpRequestsConfigurer;
import org.springframework.stereotype.Component;

/**
 * Who may call the exchange's JSON API, by path (the normalized one: common's firewall has already refused
 * encoded, doubled or dot-segment paths and semicolons). Creating accounts and granting shares is admin work;
 * an account and its orders are for traders and admins here, and {@link ExchangeGateway#callOnAccount} then lets
 * a trader through only to the accounts they own. Anything else under {@code /api/exchange} is for admins, so a
 * new endpoint is closed until a rule opens it.
 */
@Component
class ExchangeAccessRules implements AccessRules {

    @Override
    public void apply(
            AuthorizeHttpRequestsConfigurer<HttpSecurity>.AuthorizationManagerRequestMatcherRegistry requests) {
        requests.requestMatchers(HttpMethod.POST, "/api/exchange/accounts", "/api/exchange/symbols/*/positions")
                .hasRole(Roles.ADMIN)
                .requestMatchers(HttpMethod.GET, "/api/exchange/accounts/*")
                .hasAnyRole(Roles.TRADER, Roles.ADMIN)
                .requestMatchers("/api/exchange/accounts/*/orders", "/api/exchange/accounts/*/orders/**")
                .hasAnyRole(Roles.TRADER, Roles.ADMIN)
                .requestMatchers("/api/exchange", "/api/exchange/**")
                .hasRole(Roles.ADMIN);
    }
}
