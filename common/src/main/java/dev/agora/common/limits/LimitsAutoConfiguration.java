package dev.agora.common.limits;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

/** What one client may send: every service caps request bodies (16 KB, {@link LimitsProperties#MAX_BODY}). */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableConfigurationProperties(LimitsProperties.class)
public class LimitsAutoConfiguration {

    /** After the request id and Server-Timing filters, so refusals carry both. */
    @Bean
    FilterRegistrationBean<BodyLimitFilter> bodyLimitFilter(LimitsProperties limits, MeterRegistry meters) {
        var registration = new FilterRegistrationBean<>(
                new BodyLimitFilter(LimitsProperties.MAX_BODY.toBytes(), anyOf(limits.unboundedBodyPaths()), meters));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 2);
        return registration;
    }

    /** Spring Security's path matchers, as its own rules match: any of the patterns (none: no request). */
    public static RequestMatcher anyOf(List<String> patterns) {
        if (patterns.isEmpty()) return request -> false;
        return new OrRequestMatcher(patterns.stream()
                .map(pattern -> (RequestMatcher)
                        PathPatternRequestMatcher.withDefaults().matcher(pattern.strip()))
                .toList());
    }
}
