package dev.agora.perf.report;

import dev.agora.perf.stats.Comparison;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a report's three artefacts, {@code <name>.md}, {@code <name>.json} and its charts as PNG, and the folder's
 * index ({@link ReportsIndex}) again.
 */
public final class ReportWriter {

    private static final JsonMapper JSON =
            JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private ReportWriter() {}

    /** Returns the files written. A chart that cannot be drawn is noted, never fatal to the report. */
    public static List<Path> write(Report report, Path directory) throws IOException {
        Files.createDirectories(directory);
        List<Path> written = new ArrayList<>();
        List<String> chartFailures = new ArrayList<>();
        for (Chart chart : report.charts()) {
            try {
                written.add(ChartRenderer.renderPng(chart, directory));
            } catch (IOException | RuntimeException | LinkageError e) {
                chartFailures.add(chart.fileName() + ": " + e);
            }
        }
        Path markdown = directory.resolve(report.name() + ".md");
        String text = MarkdownRenderer.render(report);
        if (!chartFailures.isEmpty()) text += "\nCharts not drawn: " + String.join("; ", chartFailures) + "\n";
        Files.writeString(markdown, text);
        written.add(markdown);
        Path json = directory.resolve(report.name() + ".json");
        Files.writeString(json, toJson(report));
        written.add(json);
        written.add(ReportsIndex.write(directory));
        return written;
    }

    public static String toJson(Report report) {
        return JSON.writeValueAsString(jsonTree(report));
    }

    /** The report as plain maps and lists, so ratios and verdicts (derived values) are in the JSON too. */
    static Map<String, Object> jsonTree(Report report) {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("name", report.name());
        tree.put("title", report.title());
        tree.put("status", report.status().name());
        tree.put("headline", report.headline());
        tree.put("seed", report.seed());
        tree.put("seedHardware", report.seedHardware());
        tree.put("quick", report.quick());
        tree.put("startedAt", report.startedAt().toString());
        tree.put("durationSeconds", report.duration().toMillis() / 1000.0);
        tree.put("machine", report.machine());
        tree.put("commit", report.commit());
        tree.put("conditions", report.conditions());
        if (!report.floor().isBlank()) tree.put("floor", report.floor());
        if (report.load() != null) tree.put("load", load(report.load()));
        List<Map<String, Object>> comparisons = new ArrayList<>();
        for (Comparison c : report.comparisons()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("metric", c.metric());
            row.put("unit", c.unit());
            row.put("seed", finiteOrNull(c.seed()));
            row.put("ours", finiteOrNull(c.ours()));
            row.put("better", c.better().name().toLowerCase());
            row.put("ratio", finiteOrNull(c.ratio()));
            row.put("verdict", c.verdict());
            comparisons.add(row);
        }
        tree.put("comparisons", comparisons);
        tree.put("latencies", report.latencies());
        tree.put("sections", report.sections());
        tree.put("charts", report.charts());
        tree.put("notes", report.notes());
        tree.put("raw", report.raw());
        return tree;
    }

    private static Map<String, Object> load(MachineLoad load) {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("loadAverageStart", finiteOrNull(load.loadAverageStart()));
        values.put("loadAverageEnd", finiteOrNull(load.loadAverageEnd()));
        values.put("stealPercent", finiteOrNull(load.cpu().stealPercent()));
        values.put("busyPercent", finiteOrNull(load.cpu().busyPercent()));
        return values;
    }

    private static Double finiteOrNull(double value) {
        return Double.isFinite(value) ? value : null;
    }
}
