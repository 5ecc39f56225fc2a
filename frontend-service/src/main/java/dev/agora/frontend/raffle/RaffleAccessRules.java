package dev.agora.frontend.raffle;

import dev.agora.common.security.AccessRules;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AuthorizeHttpRequestsConfigurer;
import org.springframework.stereotype.Component;

/** The winners list is public, like the catalog's reads; it names orders and books, never buyers. */
@Component
class RaffleAccessRules implements AccessRules {

    @Override
    public void apply(
            AuthorizeHttpRequestsConfigurer<HttpSecurity>.AuthorizationManagerRequestMatcherRegistry requests) {
        requests.requestMatchers(HttpMethod.GET, "/api/raffle/winners").permitAll();
    }
}
