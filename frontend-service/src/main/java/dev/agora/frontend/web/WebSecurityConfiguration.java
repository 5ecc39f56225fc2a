package dev.agora.frontend.web;

import dev.agora.common.security.AgoraSecurityAutoConfiguration;
import dev.agora.common.security.Roles;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Arrays;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.annotation.web.configurers.HeadersConfigurer;
import org.springframework.security.provisioning.JdbcUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.SimpleUrlAuthenticationFailureHandler;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter;
import org.springframework.security.web.savedrequest.CookieRequestCache;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.AndRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

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

    /** What anyone may read without signing in: the store, a book's page, and the pages' static files. */
    static final String[] PUBLIC_PAGES = {"/", "/books/*", "/css/**", "/js/**", "/favicon.ico"};

    /**
     * A reader with no session cookie who reads a public page: nobody to identify and
     * nothing to protect, so this chain is stateless and has no CSRF tokens, as common's {@code agoraPublicReads} is
     * for the JSON reads; the firewall and the security headers (the pages' CSP and referrer policy among them) stay.
     * Such a page shows no form that changes anything (the book page offers "sign in to buy"), so it needs no CSRF
     * token, and it creates no session. Anyone with a session cookie, valid or not, and every other request, takes the full
     * chain below, so a signed-in reader's page carries the CSRF token of its buy and sign-out forms.
     */
    @Bean
    @Order(CHAIN_ORDER - 1)
    SecurityFilterChain anonymousPageReads(
            HttpSecurity http, @Value("${server.servlet.session.cookie.name:SESSION}") String sessionCookie)
            throws Exception {
        RequestMatcher withoutSession = request -> !hasCookie(request, sessionCookie);
        RequestMatcher publicPages = new OrRequestMatcher(Arrays.stream(PUBLIC_PAGES)
                .map(path -> (RequestMatcher)
                        PathPatternRequestMatcher.withDefaults().matcher(HttpMethod.GET, path))
                .toList());
        return AgoraSecurityAutoConfiguration.anonymousReads(http, new AndRequestMatcher(withoutSession, publicPages))
                .headers(WebSecurityConfiguration::pageHeaders)
                .build();
    }

    private static boolean hasCookie(HttpServletRequest request, String name) {
        Cookie[] cookies = request.getCookies();
        if (cookies == null) return false;
        for (Cookie cookie : cookies) {
            if (name.equals(cookie.getName())) return true;
        }
        return false;
    }

    /**
     * Nothing an anonymous caller does on the pages stores a session (each would live its timeout in the shared
     * database, whose small pool also serves sign-ins and tokens): the sign-in form's CSRF token goes in a cookie
     * ({@link SessionOrCookieCsrfTokens}), the page a caller was sent away from to sign in is remembered in a cookie
     * ({@link CookieRequestCache}), and a failed sign-in keeps no error in a session (the page says so from its
     * {@code ?error}). Sessions are made by signing in only, which is rate-limited per address and backs off per
     * account.
     */
    @Bean
    @Order(CHAIN_ORDER)
    SecurityFilterChain webPages(
            HttpSecurity http,
            JdbcUserDetailsManager users,
            @Value("${server.servlet.session.cookie.secure:false}") boolean secureCookies)
            throws Exception {
        var failedSignIn = new SimpleUrlAuthenticationFailureHandler("/login?error");
        failedSignIn.setAllowSessionCreation(false);
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
                .formLogin(login -> login.loginPage("/login")
                        .defaultSuccessUrl("/", false)
                        .failureHandler(failedSignIn)
                        .permitAll())
                .csrf(csrf -> csrf.csrfTokenRepository(new SessionOrCookieCsrfTokens(secureCookies)))
                .requestCache(cache -> cache.requestCache(new CookieRequestCache()))
                .logout(logout -> logout.logoutUrl("/logout").logoutSuccessUrl("/?signedOut"))
                .httpBasic(AbstractHttpConfigurer::disable)
                .exceptionHandling(errors -> errors.accessDeniedPage("/login?denied"))
                .headers(WebSecurityConfiguration::pageHeaders);
        return http.build();
    }

    /** Every page's headers, whichever chain serves it. */
    private static void pageHeaders(HeadersConfigurer<HttpSecurity> headers) {
        headers.contentSecurityPolicy(csp -> csp.policyDirectives(
                        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self';"
                                + " form-action 'self'; frame-ancestors 'none'"))
                .referrerPolicy(referrer -> referrer.policy(ReferrerPolicyHeaderWriter.ReferrerPolicy.SAME_ORIGIN));
    }
}
