package dev.agora.frontend.book;

import dev.agora.common.security.AgoraSecurityProperties;
import dev.agora.common.security.TokenGuardFilter;
import dev.agora.frontend.upstream.Upstream;
import io.micrometer.observation.ObservationPredicate;
import jakarta.validation.Validator;
import java.io.IOException;
import java.net.InetAddress;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.http.server.observation.ServerRequestObservationContext;

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
            AgoraSecurityProperties security,
            @Value("${server.address:}") String address)
            throws IOException {
        if (!cacheSettings.enabled() || !settings.enabled()) return null;
        return InvalidationChannel.open(
                cache,
                security.internalToken(),
                address.isBlank() ? null : InetAddress.getByName(address),
                settings.port(),
                settings.maxConnections());
    }

    /**
     * After the request id and {@code Server-Timing} filters, ahead of the token guards and Spring MVC; the
     * invalidation is guarded by the same internal token itself.
     */
    @Bean
    FilterRegistrationBean<InvalidationFilter> invalidationFilter(
            BookCache cache,
            AgoraSecurityProperties security,
            Validator validator,
            Optional<InvalidationChannel> channel) {
        var registration = new FilterRegistrationBean<>(new InvalidationFilter(
                cache, TokenGuardFilter.internal(security), validator, channel.map(InvalidationChannel::port)));
        registration.addUrlPatterns(InvalidationFilter.PATH);
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 2);
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
