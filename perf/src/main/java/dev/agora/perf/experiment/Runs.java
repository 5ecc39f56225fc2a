package dev.agora.perf.experiment;

import dev.agora.perf.load.LoadResult;
import dev.agora.perf.load.Sample;
import dev.agora.perf.report.Report;
import dev.agora.perf.stats.LatencySummary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Small pieces every experiment's report uses. */
public final class Runs {

    private Runs() {}

    /** One latency row per operation of the load, named "{prefix} {operation}". */
    public static void addLatencies(Report.Builder report, String prefix, LoadResult result) {
        for (String operation : result.latencies().keySet()) {
            report.latency(
                    prefix.isEmpty() ? operation : prefix + " " + operation,
                    result.summary(operation),
                    result.failures(operation));
        }
    }

    /** A compact JSON-friendly view of a load: summaries per operation and failures. */
    public static Map<String, Object> raw(LoadResult result) {
        Map<String, Object> raw = new LinkedHashMap<>();
        Map<String, LatencySummary> summaries = new LinkedHashMap<>();
        result.latencies().keySet().forEach(operation -> summaries.put(operation, result.summary(operation)));
        raw.put("summaries", summaries);
        raw.put("failures", result.failures());
        if (!result.failureExamples().isEmpty()) raw.put("failureExamples", result.failureExamples());
        raw.put("wallSeconds", result.wallTime().toNanos() / 1e9);
        return raw;
    }

    /** Latencies in milliseconds of one operation in request order (for per-request charts and JSON). */
    public static List<Double> latenciesMs(LoadResult result, String operation) {
        List<Double> values = new ArrayList<>();
        for (Sample sample : result.samples(operation)) values.add(sample.latencyNanos() / 1e6);
        return values;
    }

    public static List<Double> indexes(int count) {
        List<Double> x = new ArrayList<>(count);
        for (int i = 1; i <= count; i++) x.add((double) i);
        return x;
    }

    public static String fail(LoadResult result) {
        return result.totalFailures() == 0
                ? "no failures"
                : result.totalFailures() + " failures " + result.failures() + ", e.g. " + result.failureExamples();
    }
}
