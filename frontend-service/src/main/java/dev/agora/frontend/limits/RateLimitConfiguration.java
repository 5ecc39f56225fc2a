package dev.agora.frontend.limits;

import dev.agora.frontend.limits.RateLimitSettings.Per;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * The rate limits of {@link RateLimitSettings#RATES} (SECURITY.md, "Limits"). Limits per address run before Spring
 * Security (a sign-in attempt is refused before its password is checked), after the request id, Server-Timing and
 * common's body cap; limits per caller run after it, when the caller is known.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RateLimitSettings.class)
class RateLimitConfiguration {

    @Bean
    FilterRegistrationBean<RateLimitFilter> addressRateLimitFilter(RateLimitSettings limits, MeterRegistry meters) {
        return rateLimits(limits, meters, Per.ADDRESS, Ordered.HIGHEST_PRECEDENCE + 3);
    }

    @Bean
    FilterRegistrationBean<RateLimitFilter> callerRateLimitFilter(RateLimitSettings limits, MeterRegistry meters) {
        return rateLimits(limits, meters, Per.CALLER, SecurityFilterProperties.DEFAULT_FILTER_ORDER + 1);
    }

    private static FilterRegistrationBean<RateLimitFilter> rateLimits(
            RateLimitSettings limits, MeterRegistry meters, Per per, int order) {
        var filter = new RateLimitFilter(per, limits.rates(), meters);
        var registration = new FilterRegistrationBean<>(filter);
        registration.setOrder(order);
        registration.setEnabled(filter.limitsAnything());
        registration.setName(per.name().toLowerCase() + "RateLimitFilter");
        return registration;
    }
}
