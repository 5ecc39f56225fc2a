package dev.agora.frontend.book;

import dev.agora.common.security.Roles;
import dev.agora.frontend.upstream.Upstream;
import io.micrometer.observation.ObservationPredicate;
import jakarta.validation.Validator;
import java.io.IOException;
import java.net.InetAddress;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.server.observation.ServerRequestObservationContext;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({CacheSettings.class, ChannelSettings.class})
class BookConfiguration {

    @Bean
    BookCache bookCache(CacheSettings settings) {
        return new BookCache(settings);
    }

    @Bean(destroyMethod = "close")
    PauseWatch pauseWatch(BookCache cache, CacheSettings settings) {
        return new PauseWatch(cache, settings.pauseThreshold()).start();
    }

    @Bean
    FindingBooks findingBooks(BookCache cache, Upstream upstream) {
        return new FindingBooks(cache, new CatalogClient(upstream));
    }

    /**
     * Only for a caching frontend (none: {@code null}, catalogs then push over HTTP); on the web server's address,
     * so it is reachable wherever the invalidation endpoint is.
     */
    @Bean(destroyMethod = "close")
    InvalidationChannel invalidationChannel(
            BookCache cache,
            CacheSettings cacheSettings,
            ChannelSettings settings,
            JwtDecoder tokens,
            @Value("${server.address:}") String address)
            throws IOException {
        if (!cacheSettings.enabled() || !settings.enabled()) return null;
        return InvalidationChannel.open(
                cache,
                token -> isServiceToken(tokens, token),
                address.isBlank() ? null : InetAddress.getByName(address),
                settings.port(),
                settings.maxConnections());
    }

    /** A push channel opens with a catalog's service token: signed by us, unexpired, scope {@code internal}. */
    private static boolean isServiceToken(JwtDecoder tokens, String token) {
        try {
            Object scope = tokens.decode(token).getClaims().get("scope");
            return scope != null && List.of(scope.toString().split(" ")).contains(Roles.INTERNAL_SCOPE);
        } catch (JwtException invalid) {
            return false;
        }
    }

    /**
     * Right after Spring Security's filter chain (which lets only service tokens reach {@code /internal/**}),
     * ahead of Spring MVC.
     */
    @Bean
    FilterRegistrationBean<InvalidationFilter> invalidationFilter(
            BookCache cache, Validator validator, Optional<InvalidationChannel> channel) {
        var registration = new FilterRegistrationBean<>(
                new InvalidationFilter(cache, validator, channel.map(InvalidationChannel::port)));
        registration.addUrlPatterns(InvalidationFilter.PATH);
        registration.setOrder(SecurityFilterProperties.DEFAULT_FILTER_ORDER + 1);
        return registration;
    }

    /**
     * Pushes are not observed as HTTP requests (a timer and its percentiles per push cost more than the
     * push's work); {@code agora.cache.invalidations} counts them.
     */
    @Bean
    ObservationPredicate pushesUnobserved() {
        return (name, context) -> !(context instanceof ServerRequestObservationContext request
                && InvalidationFilter.PATH.equals(request.getCarrier().getRequestURI()));
    }
}
