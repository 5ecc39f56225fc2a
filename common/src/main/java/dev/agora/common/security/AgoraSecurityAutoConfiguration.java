package dev.agora.common.security;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.apache.tomcat.util.buf.EncodedSolidusHandling;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.core.authority.mapping.SimpleAuthorityMapper;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.authentication.DelegatingJwtGrantedAuthoritiesConverter;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationConverter;
import org.springframework.security.oauth2.server.resource.authentication.JwtGrantedAuthoritiesConverter;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.util.matcher.AndRequestMatcher;
import org.springframework.security.web.util.matcher.NegatedRequestMatcher;
import org.springframework.security.web.util.matcher.RequestHeaderRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * Spring Security in every service, on its own defaults: a stateless resource server for the authorization server's
 * JWTs (keys from its JWKS) that refuses as problem+json, lets health probes and API docs through, applies the
 * service's {@link AccessRules}, and authenticates anything else. Its {@code StrictHttpFirewall} runs first (rejecting
 * encoded slashes, dot segments, semicolons, {@code //}); its {@code DefaultBearerTokenResolver} reads the token.
 */
@AutoConfiguration(
        beforeName = {
            "org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
            "org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration"
        })
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableConfigurationProperties(AgoraSecurityProperties.class)
@Import(ProblemSecurityHandlers.class)
public class AgoraSecurityAutoConfiguration {

    /** Common's chain comes after any chain a service puts in front (the frontend's authorization server). */
    public static final int CHAIN_ORDER = Ordered.LOWEST_PRECEDENCE - 100;

    /** Where {@link #agoraPublicReads} stands among the filter chains: first. Other chains order after it. */
    public static final int PUBLIC_READS_ORDER = Ordered.HIGHEST_PRECEDENCE;

    /** Most tokens a service remembers as verified; a client sends the same one for its whole lifetime. */
    public static final long REMEMBERED_TOKENS = 10_000;

    /** Tomcat would refuse an encoded (back)slash as HTML, the firewall as problem+json; nothing routes on one. */
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> encodedSeparatorsToTheFirewall() {
        return factory -> factory.addConnectorCustomizers(connector -> {
            connector.setEncodedSolidusHandling(EncodedSolidusHandling.PASS_THROUGH.getValue());
            connector.setEncodedReverseSolidusHandling(EncodedSolidusHandling.PASS_THROUGH.getValue());
        });
    }

    @Bean
    @ConditionalOnMissingBean
    JwtDecoder jwtDecoder(AgoraSecurityProperties properties) {
        return new VerifiedTokens(JwksFromAuthorities.decoder(properties), REMEMBERED_TOKENS);
    }

    /** The remembered tokens against their bound; a token pushed out is only verified again on its next use. */
    @Bean
    MeterBinder verifiedTokenMetrics(ObjectProvider<JwtDecoder> decoders) {
        return registry -> {
            if (decoders.getIfAvailable() instanceof VerifiedTokens tokens) {
                Gauge.builder("agora.security.tokens.remembered", tokens, VerifiedTokens::remembered)
                        .description("Verified tokens remembered, at most agora.security.tokens.remembered.capacity")
                        .register(registry);
                Gauge.builder("agora.security.tokens.remembered.capacity", () -> REMEMBERED_TOKENS)
                        .register(registry);
            }
        };
    }

    /** No observation per filter (dozens of timers a request); {@code http.server.requests} still records refusals. */
    @Bean
    @ConditionalOnMissingBean
    SecurityObservationSettings securityUnobserved() {
        return SecurityObservationSettings.noObservations();
    }

    @Bean
    @ConditionalOnMissingBean
    ServiceTokens serviceTokens(AgoraSecurityProperties properties, Environment environment) {
        String secret = properties.clientSecret();
        if (secret == null || secret.isBlank() || properties.authorities().isEmpty()) {
            return () -> {
                throw new IllegalStateException(
                        "This service has no client credentials (agora.security.client-secret)");
            };
        }
        return ServiceTokens.clientCredentials(
                environment.getProperty("spring.application.name"), secret, properties.authorities());
    }

    /**
     * Anonymous public reads need no identity, session or authorization decision and are the hottest requests (lookups,
     * searches, downloads): a stateless chain of their own, first. A read with a token goes to the resource server's
     * chain, which refuses a bad token as everywhere. Public data may be cached, so no {@code Cache-Control: no-store};
     * no page is read here (pages have chains of their own), so no frame or XSS headers.
     */
    @Bean
    @Order(PUBLIC_READS_ORDER)
    SecurityFilterChain agoraPublicReads(HttpSecurity http, ObjectProvider<AccessRules> rules) throws Exception {
        var paths = rules.orderedStream()
                .flatMap(rule -> rule.publicReads().stream())
                .toList();
        RequestMatcher publicReads = new AndRequestMatcher(
                new NegatedRequestMatcher(new RequestHeaderRequestMatcher(HttpHeaders.AUTHORIZATION)),
                AccessRules.anyOf(HttpMethod.GET, paths));
        return anonymousReads(http, publicReads)
                .headers(headers -> headers.cacheControl(cache -> cache.disable())
                        .frameOptions(frames -> frames.disable())
                        .xssProtection(xss -> xss.disable()))
                .build();
    }

    /**
     * Only reads needing no identity (the frontend's anonymous pages too): the firewall (every chain has it) and
     * security headers, stateless, nothing remembering or refusing a caller; {@code requests} must match only such.
     */
    public static HttpSecurity anonymousReads(HttpSecurity http, RequestMatcher requests) throws Exception {
        return stateless(http.securityMatcher(requests))
                .authorizeHttpRequests(all -> all.anyRequest().permitAll());
    }

    /** No session, and none of what only a browser's sign-in uses: CSRF, form login, HTTP basic, logout. */
    private static HttpSecurity stateless(HttpSecurity http) throws Exception {
        return http.csrf(AbstractHttpConfigurer::disable)
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .formLogin(AbstractHttpConfigurer::disable)
                .httpBasic(AbstractHttpConfigurer::disable)
                .logout(AbstractHttpConfigurer::disable);
    }

    /** The resource server: every request that no chain before it took. Stateless; no browser sign-in here. */
    @Bean
    @Order(CHAIN_ORDER)
    SecurityFilterChain agoraResourceServer(
            HttpSecurity http, JwtDecoder decoder, ProblemSecurityHandlers problems, ObjectProvider<AccessRules> rules)
            throws Exception {
        // The roles claim (["customer"]) as ROLE_CUSTOMER authorities, beside the scopes as SCOPE_*.
        var roles = new JwtGrantedAuthoritiesConverter();
        roles.setAuthoritiesClaimName(Roles.CLAIM);
        roles.setAuthorityPrefix("");
        var upperCaseRoles = new SimpleAuthorityMapper();
        upperCaseRoles.setConvertToUpperCase(true);
        var rolesAndScopes = new JwtAuthenticationConverter();
        rolesAndScopes.setJwtGrantedAuthoritiesConverter(new DelegatingJwtGrantedAuthoritiesConverter(
                new JwtGrantedAuthoritiesConverter(), jwt -> upperCaseRoles.mapAuthorities(roles.convert(jwt))));
        stateless(http)
                .authorizeHttpRequests(requests -> {
                    // A path pattern ending in /** matches the path before it too (/actuator/health).
                    requests.requestMatchers(
                                    "/actuator/health/**",
                                    "/actuator/info",
                                    // Scraped by Prometheus and perf; the edge does not publish /actuator.
                                    "/actuator/prometheus",
                                    "/actuator/metrics/**",
                                    "/livez",
                                    "/readyz",
                                    "/error",
                                    "/v3/api-docs/**",
                                    "/swagger-ui.html",
                                    "/swagger-ui/**")
                            .permitAll();
                    rules.orderedStream().forEach(rule -> rule.apply(requests));
                    requests.anyRequest().authenticated();
                })
                .oauth2ResourceServer(
                        server -> server.jwt(jwt -> jwt.decoder(decoder).jwtAuthenticationConverter(rolesAndScopes))
                                .authenticationEntryPoint(problems))
                .exceptionHandling(
                        errors -> errors.authenticationEntryPoint(problems).accessDeniedHandler(problems));
        return http.build();
    }
}
