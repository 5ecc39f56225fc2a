package dev.agora.perf.jmh;

import dev.agora.perf.report.Machine;
import dev.agora.perf.report.Table;
import dev.agora.perf.stats.Numbers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Turns JMH's JSON result file into {@code jmh.md} (and keeps the JSON beside it as {@code jmh.json}). */
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

    static String render(List<Row> rows, boolean quick) {
        Table.Builder table = Table.with("benchmark", "mode", "params", "score", "error (99.9%)", "unit");
        for (Row row : rows) {
            String name = row.benchmark().replaceFirst("^dev\\.agora\\.perf\\.jmh\\.", "");
            table.row(
                    name,
                    row.mode(),
                    row.params(),
                    Numbers.format(row.score()),
                    Double.isNaN(row.error()) ? "" : "± " + Numbers.format(row.error()),
                    row.unit());
        }
        return "# JMH microbenchmarks\n\n"
                + "Hot code paths measured in isolation with JMH: the exchange's matching core and XML codec, the "
                + "frontend's cache lookup path, and the load generator's own per-request overhead. Written by "
                + "`java -jar perf/target/agora-perf.jar jmh" + (quick ? " --quick" : "") + "` on " + Instant.now()
                + (quick
                        ? " (quick: 1 fork, 2 x 1 s warm-up, 3 x 1 s measurement; indicative only)"
                        : " (1 fork, 3 x 2 s warm-up, 5 x 2 s measurement)")
                + ".\n\n" + table.build().toMarkdown() + "\nHardware: "
                + Machine.current().oneLine()
                + ". Load average (1 minute) when the run ended: " + Numbers.format(Machine.loadAverage())
                + " on " + Runtime.getRuntime().availableProcessors() + " cores; anything near or above the core "
                + "count means other work shared the CPUs and widened the error bars.\n\n"
                + "Raw JMH results: [`jmh.json`](jmh.json)\n";
    }

    static Path write(Path resultFile, Path directory, boolean quick) throws IOException {
        String json = Files.readString(resultFile);
        Path markdown = directory.resolve("jmh.md");
        Files.writeString(markdown, render(parse(json), quick));
        Files.copy(resultFile, directory.resolve("jmh.json"), StandardCopyOption.REPLACE_EXISTING);
        return markdown;
    }
}
