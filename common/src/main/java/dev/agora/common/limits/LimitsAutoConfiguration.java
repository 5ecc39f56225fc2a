package dev.agora.common.limits;

import dev.agora.common.security.AccessRules;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.util.unit.DataSize;

/** Caps request bodies at {@link #MAX_BODY} but on the paths {@link AccessRules#unboundedBodyPaths} name (uploads). */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
public class LimitsAutoConfiguration {

    /**
     * The largest request body a service reads; a larger one is refused with 413 before it is read. Every JSON request
     * of every service is a few hundred bytes; 16 KB leaves room without letting a client make a service buffer much.
     */
    public static final DataSize MAX_BODY = DataSize.ofKilobytes(16);

    /** After the request id and Server-Timing filters, so refusals carry both. */
    @Bean
    FilterRegistrationBean<BodyLimitFilter> bodyLimitFilter(ObjectProvider<AccessRules> rules, MeterRegistry meters) {
        var unbounded = rules.orderedStream()
                .flatMap(rule -> rule.unboundedBodyPaths().stream())
                .toList();
        var registration = new FilterRegistrationBean<>(
                new BodyLimitFilter(MAX_BODY.toBytes(), AccessRules.anyOf(null, unbounded), meters));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 2);
        return registration;
    }
}
