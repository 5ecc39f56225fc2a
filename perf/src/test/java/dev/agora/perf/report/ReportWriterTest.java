package dev.agora.perf.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agora.perf.stats.Comparison;
import dev.agora.perf.stats.LatencyHistogram;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class ReportWriterTest {

    private static final Machine MACHINE = new Machine("Test CPU 9000", 2, "4.0 GiB", "Linux 6.1 (amd64)", "JDK 25");

    private static Report sample() {
        LatencyHistogram lookups = new LatencyHistogram();
        for (int i = 1; i <= 100; i++) lookups.recordNanos(i * 10_000L);
        return Report.builder("cache", "Frontend cache")
                .seed("002", "a laptop")
                .machine(MACHINE)
                .timing(Instant.parse("2026-11-21T10:00:00Z"), Duration.ofSeconds(42))
                .compare(Comparison.lowerIsBetter("lookup mean with cache", "ms", 4.94, 0.494))
                .compare(Comparison.higherIsBetter("throughput", "req/s", 40, 20))
                .compare(Comparison.lowerIsBetter("miss", "ms", 5.9, 0))
                .latency("lookups with cache", lookups.summarize(Duration.ofSeconds(1)), 3)
                .section(
                        "Per book",
                        "Text | with a pipe",
                        Table.with("book", "ms").row(1, "0.5").build())
                .chart(Chart.line("cache.png", "Lookups", "request", "ms")
                        .series("with cache", List.of(1.0, 2.0, 3.0), List.of(0.5, 0.4, 0.6))
                        .build())
                .chart(Chart.bar("cache-bars.png", "Per book", "book", "ms")
                        .bars("miss", List.of("book 1", "book 2"), List.of(5.0, 6.0))
                        .logY()
                        .build())
                .chart(Chart.timeline("cache-timeline.png", "Lookups per second", "s", "per second")
                        .series("answered", List.of(0.0, 1.0, 2.0), List.of(40.0, 0.0, 38.0))
                        .series("failed", List.of(0.0, 1.0, 2.0), List.of(0.0, 12.0, 0.0))
                        .build())
                .note("seeds ran elsewhere")
                .floor("Spring endpoint 0.2 ms")
                .raw("lookupMs", List.of(0.5, 0.4, 0.6))
                .build();
    }

    @Test
    void headlineDefaultsToTheFirstComparisonsAsRatios() {
        assertThat(sample().headline())
                .isEqualTo("lookup mean with cache 0.494 ms vs seed 4.94 ms: 10x faster; "
                        + "throughput 20 req/s vs seed 40 req/s: 2x lower");
    }

    @Test
    void markdownHasTheComparisonTableTheDistributionAndTheMachine() {
        String markdown = MarkdownRenderer.render(sample());

        assertThat(markdown).startsWith("# Frontend cache (`cache`)\n\n**lookup mean with cache 0.494 ms vs seed");
        assertThat(markdown).contains("| metric | seed | Agora | ratio | verdict |");
        assertThat(markdown).contains("| lookup mean with cache | 4.94 ms | 0.494 ms | 10 | 10x faster |");
        assertThat(markdown).contains("| throughput | 40 req/s | 20 req/s | 0.5 | 2x lower |");
        assertThat(markdown).contains("| miss | 5.9 ms | 0 ms | n/a | n/a |");
        assertThat(markdown).contains("| workload | requests | mean ms | p50 ms | p90 ms | p99 ms | p99.9 ms |");
        assertThat(markdown).contains("| lookups with cache | 100 | 0.505 | 0.5 | 0.9 | 0.99 | 1 | 1 | 100 | 3 |");
        assertThat(markdown).contains("| Test CPU 9000 | 2 | 4.0 GiB | Linux 6.1 (amd64) | JDK 25 |");
        assertThat(markdown).contains("Seed 002 ran on other hardware (a laptop)");
        assertThat(markdown).contains("Text | with a pipe");
        assertThat(markdown).contains("| 1 | 0.5 |");
        assertThat(markdown).contains("![Lookups](cache.png)");
        assertThat(markdown).contains("- seeds ran elsewhere");
        assertThat(markdown).contains("[`cache.json`](cache.json)");
    }

    @Test
    void jsonCarriesRatiosVerdictsAndRawDataAndNoNaN() {
        JsonNode json = JsonMapper.builder().build().readTree(ReportWriter.toJson(sample()));

        assertThat(json.path("name").asString()).isEqualTo("cache");
        assertThat(json.path("status").asString()).isEqualTo("MEASURED");
        assertThat(json.path("machine").path("cores").asInt()).isEqualTo(2);
        JsonNode first = json.path("comparisons").get(0);
        assertThat(first.path("seed").asDouble()).isEqualTo(4.94);
        assertThat(first.path("ours").asDouble()).isEqualTo(0.494);
        assertThat(first.path("ratio").asDouble()).isCloseTo(10.0, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(first.path("verdict").asString()).isEqualTo("10x faster");
        assertThat(json.path("comparisons").get(2).path("ratio").isNull()).isTrue();
        assertThat(json.path("latencies").get(0).path("summary").path("count").asLong())
                .isEqualTo(100);
        assertThat(json.path("raw").path("lookupMs").size()).isEqualTo(3);
        assertThat(json.path("durationSeconds").asDouble()).isEqualTo(42.0);
    }

    @Test
    void machineLoadAndStealAreInTheMarkdownAndTheJsonWithNullWhereUnknown() {
        Report measured = sample().withLoad(new MachineLoad(1.5, 2.25, new CpuTimes.Shares(8, 73)));
        Report elsewhere = sample().withLoad(new MachineLoad(Double.NaN, Double.NaN, CpuTimes.Shares.UNKNOWN));

        assertThat(MarkdownRenderer.render(measured))
                .contains("| Test CPU 9000 | 2 | 4.0 GiB | Linux 6.1 (amd64) | JDK 25 |\n\nMachine load")
                .contains("the hypervisor took 8% (steal");
        JsonNode load = JsonMapper.builder()
                .build()
                .readTree(ReportWriter.toJson(measured))
                .path("load");
        assertThat(load.path("loadAverageStart").asDouble()).isEqualTo(1.5);
        assertThat(load.path("stealPercent").asDouble()).isEqualTo(8.0);
        assertThat(load.path("busyPercent").asDouble()).isEqualTo(73.0);
        JsonNode unknown = JsonMapper.builder()
                .build()
                .readTree(ReportWriter.toJson(elsewhere))
                .path("load");
        assertThat(unknown.path("stealPercent").isNull()).isTrue();
        assertThat(unknown.path("loadAverageEnd").isNull()).isTrue();
    }

    @Test
    void writesMarkdownJsonAndPngCharts(@TempDir Path directory) throws Exception {
        List<Path> written = ReportWriter.write(sample(), directory);

        assertThat(written)
                .containsExactlyInAnyOrder(
                        directory.resolve("cache.png"),
                        directory.resolve("cache-bars.png"),
                        directory.resolve("cache-timeline.png"),
                        directory.resolve("cache.md"),
                        directory.resolve("cache.json"),
                        directory.resolve(ReportsIndex.FILE_NAME));
        for (String chart : List.of("cache.png", "cache-bars.png", "cache-timeline.png")) {
            byte[] png = Files.readAllBytes(directory.resolve(chart));
            assertThat(png.length).as(chart).isGreaterThan(1000);
            assertThat(new String(png, 1, 3, java.nio.charset.StandardCharsets.US_ASCII))
                    .as(chart)
                    .isEqualTo("PNG");
        }
        assertThat(Files.readString(directory.resolve("cache.md"))).doesNotContain("Charts not drawn");
    }

    @Test
    void writingAReportWritesTheFoldersIndexAgainWithARowPerReport(@TempDir Path directory) throws Exception {
        Report notApplicable = Report.builder("transfer-sizes", "Not run")
                .seed("003", "i5")
                .status(Report.Status.NOT_APPLICABLE)
                .headline("Not run: needs book content downloads")
                .machine(MACHINE)
                .build();
        ReportWriter.write(sample().measuring("abc1234", "Throughput JVMs."), directory);

        List<Path> written = ReportWriter.write(notApplicable, directory);

        assertThat(written).contains(directory.resolve(ReportsIndex.FILE_NAME));
        String index = Files.readString(directory.resolve(ReportsIndex.FILE_NAME));
        assertThat(index).startsWith(ReportsIndex.INTRODUCTION);
        assertThat(index)
                .contains("| [cache](cache.md) (002) | ")
                .contains("| 4.94 ms (lookup mean with cache) | 0.494 ms | 10x faster | Spring endpoint 0.2 ms |")
                .contains("| Test CPU 9000, 2 cores | abc1234 |");
        assertThat(index)
                .contains("| [transfer-sizes](transfer-sizes.md) (003) | Not run | - | Not run: needs book content"
                        + " downloads | - | - | Test CPU 9000, 2 cores | not recorded |");
        assertThat(Files.readString(directory.resolve("cache.md")))
                .contains("Commit: `abc1234`. Throughput JVMs.")
                .contains("Floor, measured in the same run: Spring endpoint 0.2 ms");
    }

    @Test
    void tableRowsMustMatchTheHeader() {
        assertThatThrownBy(() -> Table.with("a", "b").row(1).build()).isInstanceOf(IllegalArgumentException.class);
        assertThat(Table.with("a").row("x|y").build().toMarkdown()).isEqualTo("| a |\n|---|\n| x\\|y |\n");
    }
}
