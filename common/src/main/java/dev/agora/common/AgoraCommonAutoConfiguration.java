package dev.agora.common;

import dev.agora.common.problem.AgoraProblemHandler;
import dev.agora.common.security.AgoraSecurityProperties;
import dev.agora.common.security.TokenGuardFilter;
import dev.agora.common.web.RequestIds;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;

/** Wires the shared web edge into every service: problem+json, token guards, request ids. */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableConfigurationProperties(AgoraSecurityProperties.class)
@Import(AgoraProblemHandler.class)
public class AgoraCommonAutoConfiguration {

    @Bean
    FilterRegistrationBean<?> requestIdFilter() {
        var registration = new FilterRegistrationBean<>(RequestIds.filter());
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }

    @Bean
    FilterRegistrationBean<TokenGuardFilter> internalTokenFilter(AgoraSecurityProperties properties) {
        var registration = new FilterRegistrationBean<>(TokenGuardFilter.internal(properties));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
        return registration;
    }

    @Bean
    FilterRegistrationBean<TokenGuardFilter> adminTokenFilter(AgoraSecurityProperties properties) {
        var registration = new FilterRegistrationBean<>(TokenGuardFilter.admin(properties));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 11);
        return registration;
    }
}
