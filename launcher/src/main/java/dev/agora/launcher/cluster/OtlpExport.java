package dev.agora.launcher.cluster;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code --otlp URL}: every instance sends its traces there over OTLP/HTTP, every request sampled. Off unless asked
 * for. The variable names are Spring Boot's properties for its OpenTelemetry export and Micrometer Tracing, kept in
 * this one place so that they follow the services' tracing setup in one edit.
 */
public final class OtlpExport {

    /** Stands for the URL in {@link #ENVIRONMENT}. */
    private static final String ENDPOINT = "<url>";

    /** The environment an instance gets. */
    public static final Map<String, String> ENVIRONMENT = Map.of(
            "MANAGEMENT_OPENTELEMETRY_TRACING_EXPORT_OTLP_ENDPOINT", ENDPOINT,
            "MANAGEMENT_TRACING_SAMPLING_PROBABILITY", "1.0",
            "MANAGEMENT_TRACING_EXPORT_ENABLED", "true");

    private OtlpExport() {}

    /** The environment for instances exporting to {@code url}, an absolute http(s) URL (else refused). */
    public static Map<String, String> environment(String url) {
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "--otlp wants a URL such as http://127.0.0.1:4318/v1/traces, got " + url);
        }
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
            throw new IllegalArgumentException(
                    "--otlp wants a URL such as http://127.0.0.1:4318/v1/traces, got " + url);
        }
        Map<String, String> environment = new LinkedHashMap<>();
        ENVIRONMENT.forEach((name, value) -> environment.put(name, value.equals(ENDPOINT) ? url : value));
        return environment;
    }
}
