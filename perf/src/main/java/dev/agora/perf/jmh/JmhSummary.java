package dev.agora.perf.jmh;

import dev.agora.perf.report.Commits;
import dev.agora.perf.report.MachineLoad;
import dev.agora.perf.report.Report;
import dev.agora.perf.report.ReportWriter;
import dev.agora.perf.report.Table;
import dev.agora.perf.stats.Numbers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Turns JMH's JSON result file into perf's {@code jmh} report ({@code jmh.md}, {@code jmh.json}) like any other. */
final class JmhSummary {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private JmhSummary() {}

    record Row(String benchmark, String mode, String params, double score, double error, String unit) {}

    static List<Row> parse(String json) {
        List<Row> rows = new ArrayList<>();
        for (JsonNode result : JSON.readTree(json)) {
            StringBuilder params = new StringBuilder();
            JsonNode parameters = result.path("params");
            for (Map.Entry<String, JsonNode> parameter : parameters.properties()) {
                if (!params.isEmpty()) params.append(", ");
                params.append(parameter.getKey())
                        .append('=')
                        .append(parameter.getValue().asString());
            }
            JsonNode metric = result.path("primaryMetric");
            rows.add(new Row(
                    result.path("benchmark").asString(),
                    result.path("mode").asString(),
                    params.toString(),
                    metric.path("score").asDouble(),
                    metric.path("scoreError").asDouble(Double.NaN),
                    metric.path("scoreUnit").asString()));
        }
        return rows;
    }

    /** JMH's settings of the run, from its first result (the same for every benchmark of one run). */
    static String settings(String json) {
        JsonNode first = JSON.readTree(json).path(0);
        return first.path("forks").asInt() + " fork(s), "
                + first.path("warmupIterations").asInt() + " x "
                + first.path("warmupTime").asString() + " warm-up, "
                + first.path("measurementIterations").asInt()
                + " x " + first.path("measurementTime").asString() + " measurement, JVM options "
                + first.path("jvmArgs").toString();
    }

    static Report report(List<Row> rows, boolean quick) {
        Table.Builder table = Table.with("benchmark", "mode", "params", "score", "error (99.9%)", "unit");
        for (Row row : rows) {
            table.row(
                    shortName(row),
                    row.mode(),
                    row.params(),
                    Numbers.format(row.score()),
                    Double.isNaN(row.error()) ? "" : "± " + Numbers.format(row.error()),
                    row.unit());
        }
        Report.Builder report = Report.builder("jmh", "JMH microbenchmarks").quick(quick);
        report.headline(String.join(
                "; ",
                rows.stream()
                        .limit(2)
                        .map(row -> shortName(row) + " " + Numbers.format(row.score()) + " " + row.unit())
                        .toList()));
        report.section(
                "Benchmarks",
                "Hot code paths measured in isolation with JMH: the exchange's matching core and XML codec, the"
                        + " frontend's cache lookup path, and the load generator's own per-request overhead. Written by"
                        + " `java -jar perf/target/agora-perf.jar jmh" + (quick ? " --quick" : "") + "`. A load"
                        + " average near or above the core count at the end (below) means other work shared the CPUs"
                        + " and widened the error bars.",
                table.build());
        report.raw("results", rows);
        return report.build();
    }

    private static String shortName(Row row) {
        return row.benchmark().replaceFirst("^dev\\.agora\\.perf\\.jmh\\.", "");
    }

    static List<Path> write(Path resultFile, Path directory, boolean quick, MachineLoad load) throws IOException {
        String json = Files.readString(resultFile);
        Report report = report(parse(json), quick)
                .withLoad(load)
                .measuring(Commits.of(Path.of("").toAbsolutePath()), "JMH: " + settings(json) + ".");
        return ReportWriter.write(report, directory);
    }
}
