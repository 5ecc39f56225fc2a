package dev.agora.common.security;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import org.apache.tomcat.util.buf.EncodedSolidusHandling;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.config.ObjectPostProcessor;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationProvider;
import org.springframework.security.web.DefaultSecurityFilterChain;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.context.RequestAttributeSecurityContextRepository;
import org.springframework.security.web.firewall.HttpFirewall;
import org.springframework.security.web.header.HeaderWriterFilter;
import org.springframework.security.web.header.writers.HstsHeaderWriter;
import org.springframework.security.web.header.writers.XContentTypeOptionsHeaderWriter;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * Spring Security in every service: a stateless resource server that accepts the authorization server's JWTs
 * (keys from its JWKS), answers refusals with problem+json, lets health probes and API docs through, then the
 * service's own {@link AccessRules}, and requires an authenticated caller for anything else. Spring Security's
 * strict firewall runs before all of it and rejects encoded slashes, dot segments, semicolons and {@code //}.
 */
@AutoConfiguration(
        beforeName = {
            "org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
            "org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration"
        })
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableConfigurationProperties(AgoraSecurityProperties.class)
public class AgoraSecurityAutoConfiguration {

    /** Common's chain comes after any chain a service puts in front (the frontend's authorization server). */
    public static final int CHAIN_ORDER = Ordered.LOWEST_PRECEDENCE - 100;

    /**
     * Tomcat would refuse an encoded slash or backslash itself, with an HTML page; passed through, Spring Security's
     * firewall refuses it like every other path trick, as problem+json. Nothing routes on an encoded separator.
     */
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> encodedSeparatorsToTheFirewall() {
        return factory -> factory.addConnectorCustomizers(connector -> {
            connector.setEncodedSolidusHandling(EncodedSolidusHandling.PASS_THROUGH.getValue());
            connector.setEncodedReverseSolidusHandling(EncodedSolidusHandling.PASS_THROUGH.getValue());
        });
    }

    /** Spring Security's strict firewall, its character checks made cheaper ({@link FirewallCharacters}). */
    @Bean
    @ConditionalOnMissingBean
    HttpFirewall agoraFirewall() {
        return FirewallCharacters.strictFirewall();
    }

    @Bean
    ProblemSecurityHandlers problemSecurityHandlers() {
        return new ProblemSecurityHandlers();
    }

    /** Most tokens a service remembers as verified; a client sends the same one for its whole lifetime. */
    public static final long REMEMBERED_TOKENS = 10_000;

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

    /**
     * Spring Security observes every filter of its chain and every authentication and authorization as Micrometer
     * observations: a decorator around each of its filters and dozens of timers per request, more than the checks
     * themselves cost (a profile of a catalog lookup put 15% of its CPU in the decorator alone, with the
     * observations themselves already disabled by a predicate). With these settings the chain is not decorated at
     * all. The requests are still observed as {@code http.server.requests}, refusals included.
     */
    @Bean
    @ConditionalOnMissingBean
    SecurityObservationSettings securityUnobserved() {
        return SecurityObservationSettings.noObservations();
    }

    @Bean
    @ConditionalOnMissingBean
    ServiceTokens serviceTokens(AgoraSecurityProperties properties) {
        if (!properties.callsOtherServices()) {
            return () -> {
                throw new IllegalStateException(
                        "This service has no client credentials (agora.security.client-secret)");
            };
        }
        return new ClientCredentialsTokens(properties);
    }

    /** The anonymous public reads of this service ({@link PublicReads#PROPERTY}). */
    @Bean
    @ConditionalOnMissingBean
    PublicReads publicReads(Environment environment) {
        return PublicReads.from(environment);
    }

    /** Where {@link #agoraPublicReads} stands among the filter chains: first. Other chains order after it. */
    public static final int PUBLIC_READS_ORDER = Ordered.HIGHEST_PRECEDENCE;

    /**
     * Anonymous public reads ({@link PublicReads}) get the firewall (every chain has it) and the security headers that
     * apply to public data, and nothing else: no security context, no anonymous authentication, no authorization
     * decision (there is nothing to decide), no exception translation. The chain is assembled from Spring Security's
     * own filter rather than through {@code HttpSecurity}, which always adds filters these requests do not need. The
     * headers are {@code X-Content-Type-Options: nosniff} and, over HTTPS, HSTS; the defaults' {@code Cache-Control:
     * no-store} (public data may be cached), {@code X-Frame-Options} and the disabling {@code X-XSS-Protection: 0}
     * (no page is read here: the pages have chains of their own) are left out. They are written before the request
     * goes on instead of when the response commits, so the response is not wrapped once more for every write and
     * header call. The paths must also be open in the service's {@link AccessRules}, so the answer does not depend on
     * the chain. It is the first chain asked ({@link #PUBLIC_READS_ORDER}): an anonymous GET of a listed path belongs
     * to no other chain, and each chain asked before it costs every such read one more matcher (the frontend's
     * authorization server alone tests ten endpoint patterns).
     */
    @Bean
    @Order(PUBLIC_READS_ORDER)
    SecurityFilterChain agoraPublicReads(PublicReads publicReads) {
        var headers = new HeaderWriterFilter(List.of(new XContentTypeOptionsHeaderWriter(), new HstsHeaderWriter()));
        headers.setShouldWriteHeadersEagerly(true);
        return new DefaultSecurityFilterChain(publicReads, headers);
    }

    /**
     * A chain for requests that only read and need no identity: the firewall (every chain has it) and the default
     * security headers, nothing that identifies, remembers or refuses a caller. The caller's matcher must take only
     * such requests; the frontend's anonymous page reads use it too.
     */
    public static HttpSecurity anonymousReads(HttpSecurity http, RequestMatcher requests) throws Exception {
        return http.securityMatcher(requests)
                .csrf(AbstractHttpConfigurer::disable)
                .sessionManagement(AbstractHttpConfigurer::disable)
                .securityContext(AbstractHttpConfigurer::disable)
                .requestCache(AbstractHttpConfigurer::disable)
                .anonymous(AbstractHttpConfigurer::disable)
                .servletApi(AbstractHttpConfigurer::disable)
                .exceptionHandling(AbstractHttpConfigurer::disable)
                .formLogin(AbstractHttpConfigurer::disable)
                .httpBasic(AbstractHttpConfigurer::disable)
                .logout(AbstractHttpConfigurer::disable)
                .authorizeHttpRequests(all -> all.anyRequest().permitAll());
    }

    /**
     * The resource server: every request that no chain before it took. It is stateless and keeps only the filters a
     * bearer-token API needs: the firewall, the security context of the request (kept as a request attribute, so an
     * error or async dispatch of the same request still knows its caller), the security headers, the token's check,
     * exception translation and the authorization decision. {@code HttpSecurity}'s defaults also wrap each request and
     * response two more times (servlet API integration, URL encoding), manage sessions and make an anonymous
     * authentication for a request without a token; a buy crosses this chain in three services, and those filters
     * were about a quarter of its cost there. Without an anonymous authentication, a request without a token that needs
     * one fails the authorization decision's look-up of the caller, which exception translation answers with the entry
     * point's 401, as before. The headers are written before the request goes on instead of when the response commits
     * (see {@link #agoraPublicReads}); every controller and proxy here sets, rather than adds, the headers they share
     * with them. The token's authentication is checked by an {@link AuthenticationManager} of its own, which publishes
     * no authentication events (nothing listens to them) and reads no request details ({@link HeaderBearerTokens}).
     */
    @Bean
    @Order(CHAIN_ORDER)
    SecurityFilterChain agoraResourceServer(
            HttpSecurity http, JwtDecoder decoder, ProblemSecurityHandlers problems, ObjectProvider<AccessRules> rules)
            throws Exception {
        var tokens = new JwtAuthenticationProvider(decoder);
        tokens.setJwtAuthenticationConverter(RoleClaims.authenticationConverter());
        http.csrf(AbstractHttpConfigurer::disable)
                .sessionManagement(AbstractHttpConfigurer::disable)
                .securityContext(
                        context -> context.securityContextRepository(new RequestAttributeSecurityContextRepository()))
                .servletApi(AbstractHttpConfigurer::disable)
                .anonymous(AbstractHttpConfigurer::disable)
                .requestCache(AbstractHttpConfigurer::disable)
                .formLogin(AbstractHttpConfigurer::disable)
                .httpBasic(AbstractHttpConfigurer::disable)
                .logout(AbstractHttpConfigurer::disable)
                .headers(headers -> headers.addObjectPostProcessor(new ObjectPostProcessor<HeaderWriterFilter>() {
                    @Override
                    public <O extends HeaderWriterFilter> O postProcess(O filter) {
                        filter.setShouldWriteHeadersEagerly(true);
                        return filter;
                    }
                }))
                .authorizeHttpRequests(requests -> {
                    requests.requestMatchers(
                                    "/actuator/health",
                                    "/actuator/health/**",
                                    "/actuator/info",
                                    // Scraped by Prometheus and perf; the edge does not publish /actuator.
                                    "/actuator/prometheus",
                                    "/actuator/metrics",
                                    "/actuator/metrics/**",
                                    "/livez",
                                    "/readyz",
                                    "/error",
                                    "/v3/api-docs",
                                    "/v3/api-docs/**",
                                    "/swagger-ui.html",
                                    "/swagger-ui/**")
                            .permitAll();
                    rules.orderedStream().forEach(rule -> rule.apply(requests));
                    requests.anyRequest().authenticated();
                })
                .oauth2ResourceServer(server -> server.authenticationConverter(new HeaderBearerTokens())
                        .jwt(jwt -> jwt.authenticationManager(new ProviderManager(tokens)))
                        .authenticationEntryPoint(problems)
                        .accessDeniedHandler(problems))
                .exceptionHandling(
                        errors -> errors.authenticationEntryPoint(problems).accessDeniedHandler(problems));
        return http.build();
    }
}
