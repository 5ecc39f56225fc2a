package dev.agora.perf.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.perf.report.Report;
import dev.agora.perf.report.ReportWriter;
import dev.agora.perf.stats.LatencySummary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompareReportTest {

    @TempDir
    Path directory;

    @Test
    void writesMarkdownAndJsonNamedByTheStartMinuteWithMediansRatiosCpuPerTierAndInvalidationPerBuy() throws Exception {
        List<BatchResult> results = new ArrayList<>();
        for (RoundSchedule.Batch batch : RoundSchedule.batches(3)) {
            // New lookups take 1.2x old ones; new buys 1.5x the order tier's CPU; one new buy refused in round 2.
            boolean candidate = batch.side() == Side.CANDIDATE;
            double p50 = batch.kind() == Kind.LOOKUP && candidate ? 1.2 : 1.0;
            long failures = batch.kind() == Kind.BUY && candidate && batch.round() == 1 ? 1 : 0;
            Map<CpuTier, Double> cpu = new EnumMap<>(CpuTier.class);
            for (CpuTier tier : CpuTier.values()) cpu.put(tier, 100.0);
            if (batch.kind() == Kind.BUY && candidate) cpu.put(CpuTier.ORDER, 150.0);
            results.add(new BatchResult(
                    batch,
                    new LatencySummary(100, p50, p50, p50, 2 * p50, 3 * p50, 4 * p50, 1000 / p50),
                    failures,
                    failures > 0 ? "409 out of stock" : "",
                    cpu,
                    // New invalidations take 0.25 ms longer than old ones' 0.5 ms.
                    batch.kind() == Kind.BUY ? (candidate ? 0.75 : 0.5) : Double.NaN));
        }
        CompareReport.Setup setup = new CompareReport.Setup(
                Map.of(Side.BASELINE, "5ebaaab", Side.CANDIDATE, "8d02221"),
                Map.of(Side.BASELINE, "/old", Side.CANDIDATE, "/new"),
                Map.of(Side.BASELINE, "no credentials", Side.CANDIDATE, "customer and admin clients"),
                "{catalog=1, frontend=1, order=1}",
                true,
                3,
                100,
                100,
                Duration.ofSeconds(20),
                0.05,
                500,
                Map.of(
                        Side.BASELINE,
                        new SettledWarmUp.WarmedUp(Duration.ofSeconds(20), 0, 0.02, true),
                        Side.CANDIDATE,
                        new SettledWarmUp.WarmedUp(Duration.ofSeconds(600), 0, 0.07, false)));
        Instant startedAt = Instant.parse("2026-11-27T07:04:59Z");

        Report report = CompareReport.build(setup, results, startedAt, Duration.ofMinutes(3));
        ReportWriter.write(report, directory);

        String markdown = Files.readString(directory.resolve("compare-2026-11-27-0704.md"));
        assertThat(markdown)
                .contains("Measured 2026-11-27 07:04 UTC in 180 s")
                .contains("5ebaaab")
                .contains("8d02221")
                .contains("| lookup | 1 | 1.2 | 1.2 | 1.2 | 2 | 2.4 | 1.2 | 1000 | 833 | 0 | 0 |")
                .contains("| buy | order | 1 | 1.5 | 1.5 |")
                .contains("| buy | postgres | 1 | 1 | 1 |")
                .contains("## Invalidation per buy")
                .contains("| 0.5 | 0.75 | 0.25 | 1.5 |")
                .contains("warmed up 20 s, its JIT compilers 2% of its CPU over its last slice, 0 non-2xx")
                .contains("warmed up 600 s, its JIT compilers 7% of its CPU over its last slice (**not settled**")
                .contains("at least 20 s and then on until its JIT compilers took under 5% of its CPU")
                .contains("1 measured answers were not 2xx")
                .contains("409 out of stock");
        assertThat(report.headline())
                .contains("lookup p50 1 -> 1.2 ms (new/old 1.2)")
                .contains("1 non-2xx answers");
        assertThat(Files.readString(directory.resolve("compare-2026-11-27-0704.json")))
                .contains("\"batches\"")
                .contains("\"cpuMillis\"");
    }
}
