package dev.agora.common.tracing;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Traces are off unless {@code management.tracing.export.enabled} is {@code true}
 * ({@code MANAGEMENT_TRACING_EXPORT_ENABLED}; the collector and the share of requests recorded: common/README.md,
 * "Traces"). Spring Boot's own switch only removes the exporter: the tracer would still start a span, fill the MDC and
 * sample on every observation, and the JDBC proxy would observe every statement. Off must cost nothing on the hot path:
 * with traces off the tracing auto-configurations are not applied at all, as if the libraries were absent. Boot's
 * default ({@code true}) is turned to {@code false} here, so that its log correlation pattern agrees.
 */
public class TracingSwitch implements EnvironmentPostProcessor {

    static final String EXPORT_ENABLED = "management.tracing.export.enabled";
    static final String EXCLUDE = "spring.autoconfigure.exclude";

    /** Everything that adds work per request once tracing libraries are on the class path. */
    static final List<String> TRACING_AUTO_CONFIGURATIONS = List.of(
            "org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration",
            "org.springframework.boot.micrometer.tracing.autoconfigure.NoopTracerAutoConfiguration",
            "org.springframework.boot.micrometer.tracing.autoconfigure.prometheus.PrometheusExemplarsAutoConfiguration",
            "org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration",
            "org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.otlp.OtlpTracingAutoConfiguration",
            "org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.zipkin.ZipkinWithOpenTelemetryTracingAutoConfiguration",
            "net.ttddyy.observation.boot.autoconfigure.DataSourceObservationAutoConfiguration");

    /**
     * With traces on, the JDBC proxy observes statements only (a default; {@code JDBC_INCLUDES} overrides it). Its
     * own default adds a span for every connection taken from the pool and every result set read: profiles of a buy
     * put those at about half the proxy's CPU, for spans that only repeat what the statement's span shows.
     */
    static final String JDBC_INCLUDES = "jdbc.includes";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (environment.getProperty(EXPORT_ENABLED, Boolean.class, false)) {
            environment
                    .getPropertySources()
                    .addLast(new MapPropertySource("agoraTracingDefaults", Map.of(JDBC_INCLUDES, "QUERY")));
            return;
        }
        Set<String> exclude = new LinkedHashSet<>(Binder.get(environment)
                .bind(EXCLUDE, Bindable.listOf(String.class))
                .orElse(List.of()));
        exclude.addAll(TRACING_AUTO_CONFIGURATIONS);
        environment
                .getPropertySources()
                .addFirst(new MapPropertySource(
                        "agoraTracingOff", Map.of(EXCLUDE, String.join(",", exclude), EXPORT_ENABLED, "false")));
    }
}
