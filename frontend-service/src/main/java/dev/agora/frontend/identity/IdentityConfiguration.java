package dev.agora.frontend.identity;

import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import dev.agora.common.security.AgoraSecurityAutoConfiguration;
import dev.agora.common.security.AgoraSecurityProperties;
import dev.agora.common.security.FailClosedSecrets;
import dev.agora.common.security.ProblemSecurityHandlers;
import dev.agora.common.security.Roles;
import dev.agora.common.security.ServiceTokens;
import dev.agora.common.security.VerifiedTokens;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import javax.sql.DataSource;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.core.env.Profiles;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.oauth2.server.authorization.OAuth2AuthorizationServerConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.security.oauth2.jwt.JwtValidators;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.jwt.NimbusJwtEncoder;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.client.JdbcRegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.settings.AuthorizationServerSettings;
import org.springframework.security.oauth2.server.authorization.token.JwtEncodingContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenCustomizer;
import org.springframework.security.provisioning.JdbcUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The front door: Spring Authorization Server's token endpoint and JWKS, users and clients in PostgreSQL, and
 * the token's contents (subject: the user a client acts for; {@code roles}: that user's roles).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({IdentityProperties.class, SignInBackoffSettings.class})
class IdentityConfiguration {

    /** Frontends start together; one seeds at a time (a PostgreSQL advisory lock held for the transaction). */
    private static final long SEEDING_LOCK = 0x4147_4f52_4149_4431L;

    /** Right after common's chain of anonymous public reads, whose paths (GET, under /api) it never serves. */
    @Bean
    @Order(AgoraSecurityAutoConfiguration.PUBLIC_READS_ORDER + 1)
    SecurityFilterChain authorizationServer(HttpSecurity http, ProblemSecurityHandlers problems) throws Exception {
        OAuth2AuthorizationServerConfigurer server = new OAuth2AuthorizationServerConfigurer();
        http.securityMatcher(server.getEndpointsMatcher())
                .with(server, Customizer.withDefaults())
                .authorizeHttpRequests(requests -> requests.anyRequest().authenticated())
                .csrf(csrf -> csrf.ignoringRequestMatchers(server.getEndpointsMatcher()))
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .exceptionHandling(errors -> errors.authenticationEntryPoint(problems));
        return http.build();
    }

    /**
     * Backoff per account for both sign-ins, right after common's limits per address (so a flood from one address is
     * refused before any account is looked at) and before Spring Security's filters check a secret.
     */
    @Bean
    // On wherever the rate limits are, unless set: a load test's one customer signs in often, never wrongly.
    @ConditionalOnExpression("${agora.identity.sign-in-backoff.enabled:${agora.limits.rates-enabled:true}}")
    FilterRegistrationBean<SignInBackoff> signInBackoff(SignInBackoffSettings settings, MeterRegistry meters) {
        var registration = new FilterRegistrationBean<>(new SignInBackoff(settings, Clock.systemUTC(), meters));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 4);
        registration.addUrlPatterns("/login", "/oauth2/token");
        return registration;
    }

    @Bean
    FilterRegistrationBean<BusyIdentityDatabase> busyIdentityDatabase() {
        var registration = new FilterRegistrationBean<>(new BusyIdentityDatabase());
        registration.setOrder(BusyIdentityDatabase.ORDER);
        return registration;
    }

    @Bean
    AuthorizationServerSettings authorizationServerSettings(AgoraSecurityProperties security) {
        return AuthorizationServerSettings.builder().issuer(security.issuer()).build();
    }

    @Bean
    PasswordEncoder passwordEncoder() {
        return PasswordEncoderFactories.createDelegatingPasswordEncoder();
    }

    @Bean
    JdbcUserDetailsManager users(DataSource dataSource) {
        return new JdbcUserDetailsManager(dataSource);
    }

    @Bean
    RegisteredClientRepository registeredClients(JdbcTemplate jdbc) {
        return new JdbcRegisteredClientRepository(jdbc);
    }

    @Bean
    OAuth2AuthorizationService authorizations() {
        return new TokensNotKept();
    }

    @Bean
    @DependsOnDatabaseInitialization
    RSAKey signingKey(IdentityProperties properties, JdbcClient database) {
        return SigningKeys.configuredOrStored(properties.signingKey(), database);
    }

    @Bean
    JWKSource<SecurityContext> jwkSource(RSAKey signingKey) {
        return SigningKeys.source(signingKey);
    }

    @Bean
    JwtEncoder jwtEncoder(JWKSource<SecurityContext> keys) {
        return new NimbusJwtEncoder(keys);
    }

    /** The frontend checks tokens with its own key: no JWKS round trip to itself. */
    @Bean
    JwtDecoder jwtDecoder(JWKSource<SecurityContext> keys, AgoraSecurityProperties security) {
        NimbusJwtDecoder decoder = NimbusJwtDecoder.withJwkSource(keys).build();
        decoder.setJwtValidator(JwtValidators.createDefaultWithIssuer(security.issuer()));
        return new VerifiedTokens(decoder, AgoraSecurityAutoConfiguration.REMEMBERED_TOKENS);
    }

    @Bean
    ServiceTokens serviceTokens(
            JwtEncoder encoder,
            AgoraSecurityProperties security,
            IdentityProperties properties,
            @Value("${spring.application.name}") String name) {
        return new SelfIssuedTokens(encoder, security.issuer(), name, properties.tokenLifetime());
    }

    /** Tokens for people signed in on the web pages, as short-lived as a program's (the session asks again). */
    @Bean
    PeopleTokens peopleTokens(JwtEncoder encoder, AgoraSecurityProperties security, IdentityProperties properties) {
        return new PeopleTokens(encoder, security.issuer(), properties.tokenLifetime());
    }

    @Bean
    @DependsOnDatabaseInitialization
    Identities identities(
            JdbcUserDetailsManager users,
            RegisteredClientRepository clients,
            PasswordEncoder passwords,
            IdentityProperties properties,
            TransactionTemplate transactions,
            JdbcClient database,
            Environment environment) {
        boolean failClosed = !environment.acceptsProfiles(Profiles.of(FailClosedSecrets.LOCAL_PROFILE));
        Identities identities = new Identities(users, clients, passwords, properties.tokenLifetime());
        transactions.executeWithoutResult(status -> {
            database.sql("SELECT pg_advisory_xact_lock(?)")
                    .param(SEEDING_LOCK)
                    .query()
                    .singleRow();
            SeedingIdentities.seed(identities, properties, failClosed);
        });
        return identities;
    }

    /** A program's token names the user its client acts for, and that user's roles. */
    @Bean
    OAuth2TokenCustomizer<JwtEncodingContext> actingForUsers(JdbcUserDetailsManager users) {
        return context -> {
            if (!OAuth2TokenType.ACCESS_TOKEN.equals(context.getTokenType())) return;
            String user = context.getRegisteredClient().getClientSettings().getSetting(Identities.ACTS_FOR);
            if (user == null) return;
            UserDetails details = users.loadUserByUsername(user);
            if (!details.isEnabled()) {
                throw new OAuth2AuthenticationException(
                        new OAuth2Error(OAuth2ErrorCodes.INVALID_CLIENT, "The client's user is disabled", null));
            }
            context.getClaims().subject(user).claim(Roles.CLAIM, roles(details));
        };
    }

    private static List<String> roles(UserDetails user) {
        return user.getAuthorities().stream()
                .map(GrantedAuthority::getAuthority)
                .filter(authority -> authority.startsWith("ROLE_"))
                .map(authority -> authority.substring(5).toLowerCase(Locale.ROOT))
                .toList();
    }
}
