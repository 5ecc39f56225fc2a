package dev.agora.frontend.book;

import dev.agora.common.limits.BoundedExecutors;
import dev.agora.frontend.upstream.Upstream;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.observation.ObservationPredicate;
import jakarta.validation.Validator;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.server.observation.ServerRequestObservationContext;
import org.springframework.web.socket.config.annotation.EnableWebSocket;
import org.springframework.web.socket.config.annotation.WebSocketConfigurer;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(CacheSettings.class)
@EnableWebSocket
class BookConfiguration {

    @Bean
    CatalogLeases catalogLeases() {
        return new CatalogLeases();
    }

    @Bean
    BookCache bookCache(CacheSettings settings, CatalogLeases leases) {
        return new BookCache(settings, leases);
    }

    @Bean
    FindingBooks findingBooks(BookCache cache, Upstream upstream) {
        return new FindingBooks(cache, new CatalogClient(upstream));
    }

    /**
     * Every frontend takes the catalogs' sessions, also one that does not cache (it acknowledges what it is told):
     * a catalog that listed it then needs no lease of it to answer a write.
     */
    @Bean(destroyMethod = "close")
    InvalidationSocket invalidationSocket(BookCache cache, CatalogLeases leases) {
        return new InvalidationSocket(cache, leases);
    }

    /** Behind Spring Security's chain, which lets only service tokens open it (as any {@code /internal/**} call). */
    @Bean
    WebSocketConfigurer invalidationSessions(InvalidationSocket socket) {
        return registry -> registry.addHandler(socket, InvalidationSocket.PATH);
    }

    @Bean
    MeterBinder invalidationSessionMetrics(InvalidationSocket socket) {
        return registry -> {
            BoundedExecutors.monitor(registry, socket.renewals(), "agora.cache.lease-renewals");
            Gauge.builder("agora.cache.catalog.sessions", socket, InvalidationSocket::sessions)
                    .description("Catalogs holding an invalidation session with this frontend")
                    .register(registry);
            Gauge.builder("agora.cache.catalog.sessions.buffered", socket, InvalidationSocket::buffered)
                    .description("Bytes waiting to be sent to the catalogs (bounded per session)")
                    .baseUnit("bytes")
                    .register(registry);
            FunctionCounter.builder("agora.cache.catalog.sessions.refused", socket, InvalidationSocket::refused)
                    .description("Sessions closed for a message that is not an invalidation or a lease")
                    .register(registry);
        };
    }

    /**
     * Right after Spring Security's filter chain (which lets only service tokens reach {@code /internal/**}),
     * ahead of Spring MVC.
     */
    @Bean
    FilterRegistrationBean<InvalidationFilter> invalidationFilter(BookCache cache, Validator validator) {
        var registration = new FilterRegistrationBean<>(new InvalidationFilter(cache, validator));
        registration.addUrlPatterns(InvalidationFilter.PATH);
        registration.setOrder(SecurityFilterProperties.DEFAULT_FILTER_ORDER + 1);
        return registration;
    }

    /**
     * Single HTTP invalidations are not observed as HTTP requests (a timer and its percentiles per push cost more
     * than the push's work); {@code agora.cache.invalidations} counts them.
     */
    @Bean
    ObservationPredicate pushesUnobserved() {
        return (name, context) -> !(context instanceof ServerRequestObservationContext request
                && InvalidationFilter.PATH.equals(request.getCarrier().getRequestURI()));
    }
}
