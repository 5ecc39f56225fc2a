package dev.agora.frontend.timing;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

@Configuration(proxyBeanMethods = false)
class TimingConfiguration {

    /** Right after the request id, before the token guards, so their 401/403 carry the header too. */
    @Bean
    FilterRegistrationBean<ServerTimingFilter> serverTimingFilter() {
        var registration = new FilterRegistrationBean<>(new ServerTimingFilter());
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 1);
        return registration;
    }
}
