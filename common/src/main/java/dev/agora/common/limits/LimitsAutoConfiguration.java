package dev.agora.common.limits;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import org.apache.coyote.http11.AbstractHttp11Protocol;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

/** What one client may send: every service caps request bodies ({@code agora.limits.max-body}). */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableConfigurationProperties(LimitsProperties.class)
public class LimitsAutoConfiguration {

    /** After the request id and Server-Timing filters, so refusals carry both. */
    @Bean
    FilterRegistrationBean<BodyLimitFilter> bodyLimitFilter(LimitsProperties limits, MeterRegistry meters) {
        var registration = new FilterRegistrationBean<>(
                new BodyLimitFilter(limits.maxBody().toBytes(), anyOf(limits.unboundedBodyPaths()), meters));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 2);
        return registration;
    }

    /**
     * After refusing a request, Tomcat reads and discards what is left of its body to keep the connection, up to
     * its max-swallow-size (2 MB by default): a refused 8 MB upload would still tie a connection up for 2 MB. Past
     * the body cap it closes the connection instead.
     */
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> swallowNoMoreThanTheBodyCap(LimitsProperties limits) {
        int cap = (int) Math.min(Integer.MAX_VALUE, limits.maxBody().toBytes());
        return factory -> factory.addConnectorCustomizers(connector -> {
            if (connector.getProtocolHandler() instanceof AbstractHttp11Protocol<?> http) http.setMaxSwallowSize(cap);
        });
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
