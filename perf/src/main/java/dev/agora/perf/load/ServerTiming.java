package dev.agora.perf.load;

import dev.agora.perf.stats.LatencyHistogram;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A parsed {@code Server-Timing} header (W3C Server Timing): {@code catalog;dur=0.8, order;dur=2.1,
 * cache;desc=hit}. Metrics keep their order; a metric without {@code dur} has no duration.
 */
public record ServerTiming(Map<String, Metric> metrics) {

    public static final ServerTiming NONE = new ServerTiming(Map.of());

    public record Metric(String name, Optional<Double> durationMs, Optional<String> description) {}

    public static ServerTiming parse(String header) {
        if (header == null || header.isBlank()) return NONE;
        Map<String, Metric> metrics = new LinkedHashMap<>();
        for (String entry : header.split(",")) {
            String[] parts = entry.split(";");
            String name = parts[0].trim();
            if (name.isEmpty()) continue;
            Double duration = null;
            String description = null;
            for (int i = 1; i < parts.length; i++) {
                String parameter = parts[i].trim();
                int equals = parameter.indexOf('=');
                if (equals < 0) continue;
                String key = parameter.substring(0, equals).trim();
                String value = unquote(parameter.substring(equals + 1).trim());
                if (key.equalsIgnoreCase("dur")) duration = parseDuration(value);
                else if (key.equalsIgnoreCase("desc")) description = value;
            }
            metrics.putIfAbsent(
                    name, new Metric(name, Optional.ofNullable(duration), Optional.ofNullable(description)));
        }
        return new ServerTiming(Collections.unmodifiableMap(metrics));
    }

    public Optional<Double> durationMs(String metric) {
        Metric found = metrics.get(metric);
        return found == null ? Optional.empty() : found.durationMs();
    }

    public Optional<String> description(String metric) {
        Metric found = metrics.get(metric);
        return found == null ? Optional.empty() : found.description();
    }

    /** Adds every duration to the histogram under {@code keyPrefix + name}, made when it is the first. */
    public void recordDurations(Map<String, LatencyHistogram> into, String keyPrefix) {
        for (Metric metric : metrics.values()) {
            metric.durationMs()
                    .ifPresent(ms -> into.computeIfAbsent(keyPrefix + metric.name(), key -> new LatencyHistogram())
                            .recordNanos(Math.round(ms * 1e6)));
        }
    }

    /** True when the frontend says it answered from its cache ({@code cache;desc=hit}). */
    public boolean cacheHit() {
        return description("cache").map("hit"::equalsIgnoreCase).orElse(false);
    }

    private static String unquote(String value) {
        return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
                ? value.substring(1, value.length() - 1)
                : value;
    }

    private static Double parseDuration(String value) {
        try {
            double parsed = Double.parseDouble(value);
            return Double.isFinite(parsed) && parsed >= 0 ? parsed : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
