package dev.agora.common;

import dev.agora.common.problem.AgoraProblemHandler;
import dev.agora.common.timing.ServerTiming;
import dev.agora.common.web.RequestIds;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * Wires the shared web edge into every service: problem+json, request ids and Server-Timing. Security is
 * {@code AgoraSecurityAutoConfiguration}'s.
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@Import(AgoraProblemHandler.class)
public class AgoraCommonAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(AgoraCommonAutoConfiguration.class);

    /**
     * Started by the cluster launcher or a test ({@code AGORA_PARENT_PID}): end with it, also when it was killed
     * with SIGKILL and could not stop us itself.
     */
    @Bean
    @ConditionalOnProperty("agora.parent-pid")
    SmartInitializingSingleton endWithParentProcess(Environment environment) {
        long parentPid = environment.getRequiredProperty("agora.parent-pid", Long.class);
        return () -> whenGone(parentPid, () -> {
            log.warn("The process that started this one ({}) is gone: shutting down", parentPid);
            System.exit(1);
        });
    }

    /** Runs {@code action} once process {@code pid} has ended (at once when it is not running; the JDK polls it). */
    static CompletableFuture<Void> whenGone(long pid, Runnable action) {
        return ProcessHandle.of(pid)
                .<CompletableFuture<?>>map(ProcessHandle::onExit)
                .orElseGet(() -> CompletableFuture.completedFuture(null))
                .thenRun(action);
    }

    @Bean
    FilterRegistrationBean<?> requestIdFilter() {
        var registration = new FilterRegistrationBean<>(RequestIds.filter());
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }

    /** Right after the request id, before Spring Security's chain, so its 401/403 carry the header too. */
    @Bean
    FilterRegistrationBean<ServerTiming.Filter> serverTimingFilter() {
        var registration = new FilterRegistrationBean<>(new ServerTiming.Filter());
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 1);
        return registration;
    }
}
