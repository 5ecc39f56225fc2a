package dev.agora.frontend.web;

import dev.agora.common.security.AgoraSecurityAutoConfiguration;
import dev.agora.common.security.Roles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.provisioning.JdbcUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter;

/**
 * The web pages' own filter chain: people sign in with a form (their password hash is in the identity database),
 * stay signed in by a session cookie (HttpOnly, SameSite=Lax, Secure outside local runs; application.yml), and every
 * form that changes something carries a CSRF token. It matches only the pages' paths, so the token API keeps its
 * stateless resource-server chain (common's) unchanged. Browsing and the book page need no sign-in and create no
 * session; buying, orders, publishing and trading need the role that the services will check again from the token
 * the pages send for the person.
 */
@Configuration(proxyBeanMethods = false)
class WebSecurityConfiguration {

    /** Between the authorization server's chain (first) and common's resource-server chain (last). */
    static final int CHAIN_ORDER = AgoraSecurityAutoConfiguration.CHAIN_ORDER - 10;

    /** Every path the pages use; nothing here overlaps the API ({@code /api}, {@code /search}, {@code /lookup}...). */
    static final String[] PAGE_PATHS = {
        "/",
        "/login",
        "/logout",
        "/books/**",
        "/orders",
        "/publish/**",
        "/trade/**",
        "/css/**",
        "/js/**",
        "/favicon.ico"
    };

    @Bean
    @Order(CHAIN_ORDER)
    SecurityFilterChain webPages(HttpSecurity http, JdbcUserDetailsManager users) throws Exception {
        http.securityMatcher(PAGE_PATHS)
                .userDetailsService(users)
                .authorizeHttpRequests(requests -> requests.requestMatchers(
                                HttpMethod.GET, "/", "/books/*", "/css/**", "/js/**", "/favicon.ico")
                        .permitAll()
                        .requestMatchers("/login")
                        .permitAll()
                        .requestMatchers(HttpMethod.POST, "/books/*/buy")
                        .hasRole(Roles.CUSTOMER)
                        .requestMatchers("/orders")
                        .hasAnyRole(Roles.CUSTOMER, Roles.ADMIN)
                        .requestMatchers("/publish/**")
                        .hasAnyRole(Roles.PUBLISHER, Roles.ADMIN)
                        .requestMatchers("/trade/**")
                        .hasAnyRole(Roles.TRADER, Roles.ADMIN)
                        .anyRequest()
                        .authenticated())
                .formLogin(login ->
                        login.loginPage("/login").defaultSuccessUrl("/", false).permitAll())
                .logout(logout -> logout.logoutUrl("/logout").logoutSuccessUrl("/?signedOut"))
                .httpBasic(AbstractHttpConfigurer::disable)
                .exceptionHandling(errors -> errors.accessDeniedPage("/login?denied"))
                .headers(headers -> headers.contentSecurityPolicy(csp -> csp.policyDirectives(
                                "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self';"
                                        + " form-action 'self'; frame-ancestors 'none'"))
                        .referrerPolicy(
                                referrer -> referrer.policy(ReferrerPolicyHeaderWriter.ReferrerPolicy.SAME_ORIGIN)));
        return http.build();
    }
}
