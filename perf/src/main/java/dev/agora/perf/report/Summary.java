package dev.agora.perf.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * {@code last-run.md} beside the reports: one line per report of the last run, with its headline. The folder's
 * {@code README.md} is the curated summary across runs (seed, ours, ratio, machine, date) and is never overwritten.
 */
public final class Summary {

    private Summary() {}

    public static Path write(List<Report> reports, Path directory, boolean quick, Duration total) throws IOException {
        Machine machine =
                reports.isEmpty() ? Machine.current() : reports.getFirst().machine();
        Table.Builder table = Table.with("experiment", "seed", "status", "headline");
        for (Report report : reports) {
            table.row(
                    "[" + report.name() + "](" + report.name() + ".md)",
                    report.seed(),
                    report.status().name().toLowerCase().replace('_', ' '),
                    report.headline());
        }
        String text = "# The last run\n\n"
                + "Written by `java -jar perf/target/agora-perf.jar run " + (quick ? "all --quick" : "all")
                + "` on " + Instant.now() + " in " + total.toSeconds() + " s. "
                + (quick ? "Quick run: reduced counts, not comparable with the seeds' figures. " : "")
                + "Hardware: " + machine.oneLine() + ". The seeds ran on other machines (see each report).\n\n"
                + table.build().toMarkdown();
        Path file = directory.resolve("last-run.md");
        Files.writeString(file, text);
        return file;
    }
}
