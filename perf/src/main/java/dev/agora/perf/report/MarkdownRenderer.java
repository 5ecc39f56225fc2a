package dev.agora.perf.report;

import static dev.agora.perf.stats.Numbers.format;

import dev.agora.perf.stats.Comparison;
import dev.agora.perf.stats.LatencySummary;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Renders a {@link Report} as the markdown file {@code perf/reports/<name>.md}. */
public final class MarkdownRenderer {

    private static final DateTimeFormatter WHEN =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    private MarkdownRenderer() {}

    public static String render(Report report) {
        StringBuilder md = new StringBuilder();
        md.append("# ")
                .append(report.title())
                .append(" (`")
                .append(report.name())
                .append("`)\n\n");
        md.append("**").append(report.headline()).append("**\n\n");
        if (!report.floor().isBlank())
            md.append("Floor, measured in the same run: ")
                    .append(report.floor())
                    .append("\n\n");
        md.append(provenance(report)).append("\n\n");
        if (!report.comparisons().isEmpty()) {
            md.append("## Seed vs Agora\n\n")
                    .append(comparisons(report).toMarkdown())
                    .append('\n');
            md.append("Ratio: how many times better Agora is (above 1 better, below 1 worse).\n\n");
        }
        if (!report.latencies().isEmpty()) {
            md.append("## Latency distribution (Agora)\n\n")
                    .append(latencies(report).toMarkdown())
                    .append('\n');
        }
        for (Report.Section section : report.sections()) {
            md.append("## ").append(section.heading()).append("\n\n");
            if (section.text() != null && !section.text().isBlank()) {
                md.append(section.text().strip()).append("\n\n");
            }
            if (section.table() != null) md.append(section.table().toMarkdown()).append('\n');
        }
        if (!report.charts().isEmpty()) {
            md.append("## Charts\n\n");
            for (Chart chart : report.charts()) {
                md.append("![")
                        .append(chart.title())
                        .append("](")
                        .append(chart.fileName())
                        .append(")\n\n");
            }
        }
        if (!report.notes().isEmpty()) {
            md.append("## Notes\n\n");
            for (String note : report.notes()) md.append("- ").append(note).append('\n');
            md.append('\n');
        }
        md.append("## Machine\n\n").append(machine(report).toMarkdown()).append('\n');
        if (report.load() != null) {
            md.append(report.load().describe(report.machine().cores())).append("\n\n");
        }
        md.append("Raw data: [`")
                .append(report.name())
                .append(".json`](")
                .append(report.name())
                .append(".json)\n");
        return md.toString();
    }

    private static String provenance(Report report) {
        // What ran (its counts) is in the report's conditions: the run command names each experiment's workload.
        String counts = report.quick()
                ? "Run with `--quick`: reduced request counts, not the seed's; compare shapes, not figures."
                : "";
        String seedSide = report.seed().isBlank()
                ? ""
                : "Seed " + report.seed() + " ran on other hardware (" + report.seedHardware()
                        + "); our figures are from this " + report.machine().cores() + "-core machine, measured "
                        + WHEN.format(report.startedAt()) + " in "
                        + format(report.duration().toMillis() / 1000.0)
                        + " s. ";
        String measured = (report.commit().isBlank() ? "" : " Commit: `" + report.commit() + "`.")
                + (report.conditions().isBlank()
                        ? ""
                        : " " + report.conditions().strip());
        return (seedSide + counts + measured + " Hardware: " + report.machine().oneLine() + ".").strip();
    }

    static Table comparisons(Report report) {
        Table.Builder table = Table.with("metric", "seed", "Agora", "ratio", "verdict");
        for (Comparison c : report.comparisons()) {
            table.row(
                    c.metric(),
                    format(c.seed()) + " " + c.unit(),
                    format(c.ours()) + " " + c.unit(),
                    format(c.ratio()),
                    c.verdict());
        }
        return table.build();
    }

    static Table latencies(Report report) {
        Table.Builder table = Table.with(
                "workload",
                "requests",
                "mean ms",
                "p50 ms",
                "p90 ms",
                "p99 ms",
                "p99.9 ms",
                "max ms",
                "throughput /s",
                "failures");
        for (Report.LatencyRow row : report.latencies()) {
            LatencySummary s = row.summary();
            table.row(
                    row.workload(),
                    s.count(),
                    format(s.meanMs()),
                    format(s.p50Ms()),
                    format(s.p90Ms()),
                    format(s.p99Ms()),
                    format(s.p999Ms()),
                    format(s.maxMs()),
                    format(s.throughputPerSecond()),
                    row.failures());
        }
        return table.build();
    }

    private static Table machine(Report report) {
        Machine m = report.machine();
        return Table.with("CPU", "cores", "memory", "OS", "JDK")
                .row(m.cpuModel(), m.cores(), m.memory(), m.operatingSystem(), m.jdk())
                .build();
    }
}
