package dev.agora.perf.experiment;

import static dev.agora.perf.stats.Numbers.format;

import dev.agora.perf.load.HttpReply;
import dev.agora.perf.load.OpenLoad;
import dev.agora.perf.report.Chart;
import dev.agora.perf.report.Report;
import dev.agora.perf.report.Table;
import dev.agora.perf.stats.Knee;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongFunction;

/**
 * Runs one workload open-model at rising fixed rates and finds where p99 turns. Stops climbing once the
 * system clearly cannot keep up, so an overloaded rate costs seconds, not minutes.
 */
public final class KneeProbe {

    private final String workload;
    private final List<Knee.Point> points = new ArrayList<>();
    private final List<OpenLoad.Result> results = new ArrayList<>();

    private KneeProbe(String workload) {
        this.workload = workload;
    }

    public static List<Double> rates(ExperimentContext context) {
        return context.choose(List.of(100.0, 200.0, 400.0, 800.0, 1600.0, 3200.0), List.of(100.0, 400.0, 1600.0));
    }

    public static Duration durationPerRate(ExperimentContext context) {
        return Duration.ofSeconds(context.count(5, 2));
    }

    /** Runs the rates in order; {@code beforeRate} gets each rate first (e.g. to restock for buys). */
    public static KneeProbe run(
            ExperimentContext context,
            String workload,
            java.util.function.DoubleConsumer beforeRate,
            LongFunction<HttpReply> call) {
        KneeProbe probe = new KneeProbe(workload);
        Duration duration = durationPerRate(context);
        for (double rate : rates(context)) {
            beforeRate.accept(rate * duration.toSeconds());
            OpenLoad.Result result = OpenLoad.run(rate, duration, call);
            probe.results.add(result);
            probe.points.add(new Knee.Point(
                    rate, result.achievedPerSecond(), result.fromIntendedStart().percentileMillis(99)));
            context.log("  open model " + workload + " @" + format(rate) + "/s: achieved "
                    + format(result.achievedPerSecond()) + "/s, p99 "
                    + format(result.fromIntendedStart().percentileMillis(99)) + " ms, failures " + result.failures());
            boolean saturated = result.achievedPerSecond() < 0.8 * rate || result.incomplete() > 0;
            if (saturated) break;
        }
        return probe;
    }

    public Optional<Knee.Point> knee() {
        return Knee.find(points, Knee.DEFAULT_FACTOR);
    }

    public String kneeText() {
        return knee().map(point -> workload + ": p99 turns at about " + format(point.offeredPerSecond())
                        + " requests/s offered (p99 " + format(point.p99Ms()) + " ms, achieved "
                        + format(point.achievedPerSecond()) + "/s)")
                .orElse(workload + ": no knee up to " + format(points.getLast().offeredPerSecond())
                        + " requests/s (p99 stayed within " + format(Knee.DEFAULT_FACTOR) + "x of the lowest rate's)");
    }

    /** Adds a table, a chart series source and the raw points to a report. */
    public static void addTo(Report.Builder report, String chartFile, List<KneeProbe> probes) {
        Table.Builder table = Table.with(
                "workload",
                "offered /s",
                "achieved /s",
                "p50 ms",
                "p99 ms",
                "p99.9 ms",
                "max ms",
                "service-time p99 ms",
                "failures",
                "incomplete");
        Chart.Builder chart = Chart.line(
                        chartFile,
                        "Open model: p99 from intended send time vs offered rate",
                        "offered requests/s",
                        "p99 latency (ms, log)")
                .logY();
        Map<String, Object> raw = new LinkedHashMap<>();
        StringBuilder text = new StringBuilder(
                "Requests arrive at a fixed rate whether or not earlier ones finished (open model); latency counts from "
                        + "each request's intended send time, so queueing is not hidden (coordinated omission). "
                        + "The knee is the first rate whose p99 exceeds " + format(Knee.DEFAULT_FACTOR)
                        + "x the p99 at the lowest rate, or that the system cannot sustain (below 90% achieved).\n\n");
        for (KneeProbe probe : probes) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            List<Map<String, Object>> rows = new ArrayList<>();
            for (OpenLoad.Result result : probe.results) {
                table.row(
                        probe.workload,
                        format(result.offeredPerSecond()),
                        format(result.achievedPerSecond()),
                        format(result.fromIntendedStart().percentileMillis(50)),
                        format(result.fromIntendedStart().percentileMillis(99)),
                        format(result.fromIntendedStart().percentileMillis(99.9)),
                        format(result.fromIntendedStart().maxMillis()),
                        format(result.serviceTime().percentileMillis(99)),
                        result.failures(),
                        result.incomplete());
                x.add(result.offeredPerSecond());
                y.add(result.fromIntendedStart().percentileMillis(99));
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("offeredPerSecond", result.offeredPerSecond());
                row.put("achievedPerSecond", result.achievedPerSecond());
                row.put("p50Ms", result.fromIntendedStart().percentileMillis(50));
                row.put("p99Ms", result.fromIntendedStart().percentileMillis(99));
                row.put("p999Ms", result.fromIntendedStart().percentileMillis(99.9));
                row.put("maxMs", result.fromIntendedStart().maxMillis());
                row.put("serviceTimeP99Ms", result.serviceTime().percentileMillis(99));
                row.put("failures", result.failures());
                row.put("incomplete", result.incomplete());
                rows.add(row);
            }
            chart.series(probe.workload, x, y);
            raw.put(probe.workload, rows);
            text.append("- ").append(probe.kneeText()).append('\n');
        }
        report.section("Open model: throughput/latency knee", text.toString(), table.build());
        report.chart(chart.build());
        report.raw("openModel", raw);
    }
}
