package dev.agora.perf.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.perf.experiment.Experiment;
import dev.agora.perf.experiment.Experiments;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The committed reports folder ({@code perf/reports}) as a reader meets it: its index and the reports agree. */
class ReportsIndexTest {

    private static final Path REPORTS = Path.of("reports");

    @Test
    void theIndexIsExactlyWhatTheReportsJsonGives() throws IOException {
        String committed = Files.readString(REPORTS.resolve(ReportsIndex.FILE_NAME));

        assertThat(committed)
                .as("perf/reports/README.md is written by perf (`agora-perf index`), never by hand")
                .isEqualTo(ReportsIndex.render(ReportsIndex.read(REPORTS)));
    }

    @Test
    void everyRowLinksAReportThatExistsAndEveryReportHasARow() throws IOException {
        String index = Files.readString(REPORTS.resolve(ReportsIndex.FILE_NAME));
        Matcher links = Pattern.compile("\\]\\(([^)]+\\.md)\\)").matcher(index);
        int rows = 0;
        while (links.find()) {
            assertThat(REPORTS.resolve(links.group(1)))
                    .as("linked from the index")
                    .isRegularFile();
            rows++;
        }
        try (Stream<Path> files = Files.list(REPORTS)) {
            List<Path> markdown = files.filter(file -> file.toString().endsWith(".md"))
                    .filter(file -> !file.getFileName().toString().equals(ReportsIndex.FILE_NAME))
                    .toList();
            for (Path report : markdown) {
                String name = report.getFileName().toString().replaceFirst("\\.md$", "");
                assertThat(REPORTS.resolve(name + ".json"))
                        .as("%s: a report is its JSON and Markdown together (no hand-written or dated copies)", report)
                        .isRegularFile();
            }
            assertThat(rows).as("a row per report").isEqualTo(markdown.size());
        }
    }

    @Test
    void everyReportNamesItsMachineAndItsCommit() throws IOException {
        List<ReportsIndex.Entry> entries = ReportsIndex.read(REPORTS);

        assertThat(entries).isNotEmpty();
        for (ReportsIndex.Entry entry : entries) {
            String name = entry.name();
            JsonNode report = entry.json();
            assertThat(REPORTS.resolve(name + ".md"))
                    .as("%s.json's Markdown", name)
                    .isRegularFile();
            assertThat(report.path("machine").path("cpuModel").asString(""))
                    .as(name)
                    .isNotBlank();
            assertThat(report.path("machine").path("cores").asInt()).as(name).isPositive();
            assertThat(report.path("startedAt").asString("")).as(name).isNotBlank();
            assertThat(report.path("commit").asString(""))
                    .as("%s names the commit it measured", name)
                    .isNotBlank()
                    .doesNotContain("uncommitted");
            assertThat(Files.readString(REPORTS.resolve(name + ".md")))
                    .as("%s.md names it too", name)
                    .contains(report.path("commit").asString());
        }
    }

    @Test
    void everyChartAReportListsIsBesideItAndShownInItsMarkdown() throws IOException {
        for (ReportsIndex.Entry entry : ReportsIndex.read(REPORTS)) {
            String markdown = Files.readString(REPORTS.resolve(entry.name() + ".md"));
            for (JsonNode chart : entry.json().path("charts")) {
                String file = chart.path("fileName").asString("");
                assertThat(REPORTS.resolve(file))
                        .as("%s's chart %s", entry.name(), file)
                        .isRegularFile();
                assertThat(markdown).as("%s.md shows %s", entry.name(), file).contains("](" + file + ")");
            }
        }
    }

    @Test
    void everySeedExperimentHasOneReportAndAllOfThemComeFromOneSitting() throws IOException {
        Map<String, JsonNode> reports = ReportsIndex.read(REPORTS).stream()
                .collect(Collectors.toMap(ReportsIndex.Entry::name, ReportsIndex.Entry::json));
        Set<String> commits = new TreeSet<>();
        Set<String> machines = new TreeSet<>();
        List<Experiment> experiments = Stream.concat(Experiments.all().stream(), Experiments.byNameOnly().stream())
                .toList();

        for (Experiment experiment : experiments) {
            JsonNode report = reports.get(experiment.name());
            assertThat(report).as("%s has a report", experiment.name()).isNotNull();
            assertThat(report.path("quick").asBoolean())
                    .as("%s ran at the seed's counts, not --quick", experiment.name())
                    .isFalse();
            commits.add(report.path("commit").asString());
            machines.add(report.path("machine").toString());
        }
        assertThat(commits).as("the seed experiments measured one commit").hasSize(1);
        assertThat(machines).as("the seed experiments ran on one machine").hasSize(1);
    }
}
