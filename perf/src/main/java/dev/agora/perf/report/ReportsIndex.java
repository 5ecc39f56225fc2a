package dev.agora.perf.report;

import dev.agora.perf.stats.Numbers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The reports folder's {@code README.md}: one table, a row per report, made from the reports' own JSON files each
 * time perf writes a report there, so that the index cannot disagree with them.
 */
public final class ReportsIndex {

    public static final String FILE_NAME = "README.md";

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final DateTimeFormatter DATE =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC);

    static final String INTRODUCTION =
            """
            # Agora against the seeds: the reports

            One row per report in this folder, the newest run of each; older runs live in git history. perf writes \
            this file from the reports' JSON whenever it writes a report here (`java -jar perf/target/agora-perf.jar \
            index` writes it again): do not edit it by hand. The seeds ran on other hardware: compare ratios measured \
            in one run (old jars against new, Agora against a floor measured beside it), not absolute figures across \
            machines. Seed and Agora give a report's first comparison with its seed; reports measured against no seed \
            (old jars against new) give their headline. The floor, where one applies, is what the same work costs \
            without Agora's own in the same run (a bare endpoint, a bare commit), so a reader can tell a design gap from a \
            hardware one.

            """;

    private ReportsIndex() {}

    /** Writes the index of {@code directory}'s reports and returns its path. */
    public static Path write(Path directory) throws IOException {
        Path file = directory.resolve(FILE_NAME);
        Files.writeString(file, render(read(directory)));
        return file;
    }

    /**
     * A report in the folder: its file name without {@code .json} (a comparison report is kept under the name of what
     * it measured, not its dated default) and its JSON.
     */
    public record Entry(String name, JsonNode json) {}

    /** The reports' JSON trees in the folder, by file name; other JSON files (not a report's shape) are skipped. */
    public static List<Entry> read(Path directory) throws IOException {
        List<Entry> reports = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".json"))
                    .sorted()
                    .toList()) {
                JsonNode tree = JSON.readTree(Files.readString(file));
                if (tree.isObject() && tree.has("name") && tree.has("headline")) {
                    reports.add(new Entry(file.getFileName().toString().replaceFirst("\\.json$", ""), tree));
                }
            }
        }
        return reports;
    }

    public static String render(List<Entry> reports) {
        Table.Builder table =
                Table.with("experiment", "measures", "seed", "Agora", "ratio", "floor", "machine", "commit", "date");
        for (Entry report : reports) table.row(row(report.name(), report.json()).toArray(String[]::new));
        return INTRODUCTION + table.build().toMarkdown();
    }

    /** One report's cells, in the table's column order. */
    static List<String> row(String name, JsonNode report) {
        String seed = report.path("seed").asString("");
        String failed = report.path("status").asString("").equals("FAILED") ? "failed: " : "";
        JsonNode first = report.path("comparisons").path(0);
        boolean againstSeed = first.isObject();
        String unit = againstSeed ? " " + first.path("unit").asString("") : "";
        return List.of(
                "[" + name + "](" + name + ".md)" + (seed.isBlank() ? "" : " (" + seed + ")"),
                report.path("title").asString(),
                againstSeed
                        ? figure(first.path("seed")) + unit + " ("
                                + first.path("metric").asString() + ")"
                        : "-",
                failed
                        + (againstSeed
                                ? figure(first.path("ours")) + unit
                                : report.path("headline").asString()),
                againstSeed ? first.path("verdict").asString("-") : "-",
                report.path("floor").asString("").isBlank()
                        ? "-"
                        : report.path("floor").asString(),
                machine(report.path("machine")),
                report.path("commit").asString("").isBlank()
                        ? "not recorded"
                        : report.path("commit").asString(),
                DATE.format(Instant.parse(report.path("startedAt").asString())));
    }

    private static String figure(JsonNode value) {
        return value.isNumber() ? Numbers.format(value.asDouble()) : "n/a";
    }

    private static String machine(JsonNode machine) {
        return machine.path("cpuModel").asString("?") + ", "
                + machine.path("cores").asInt() + " cores";
    }
}
