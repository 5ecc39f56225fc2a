package dev.agora.perf.compare;

import static dev.agora.perf.stats.Numbers.format;

import dev.agora.perf.report.Report;
import dev.agora.perf.report.Table;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A comparison's report, written by perf's {@link dev.agora.perf.report.ReportWriter} like every experiment's. */
final class CompareReport {

    private static final DateTimeFormatter NAME =
            DateTimeFormatter.ofPattern("'compare-'yyyy-MM-dd-HHmm").withZone(ZoneOffset.UTC);

    /**
     * What was run against what.
     *
     * @param commits per side, {@code git rev-parse --short HEAD} of its tree
     * @param access per side, which demo clients its credentials file had
     * @param warmedUp per side, how its warm-up ended
     */
    record Setup(
            Map<Side, String> commits,
            Map<Side, String> trees,
            Map<Side, String> access,
            String shape,
            boolean cache,
            int rounds,
            int reads,
            int buys,
            Duration warmUp,
            double settledJit,
            long warmUpBuys,
            Map<Side, SettledWarmUp.WarmedUp> warmedUp) {}

    private static final DateTimeFormatter WHEN =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    private CompareReport() {}

    static String name(Instant startedAt) {
        return NAME.format(startedAt);
    }

    static Report build(Setup setup, List<BatchResult> results, Instant startedAt, Duration duration) {
        String title = "Old jars (" + setup.commits().get(Side.BASELINE) + ") against new ("
                + setup.commits().get(Side.CANDIDATE) + "), alternating rounds in one run";
        Report.Builder report = Report.builder(name(startedAt), title).timing(startedAt, duration);
        report.headline(headline(results));
        report.section(
                "Setup",
                "Measured " + WHEN.format(startedAt) + " in " + duration.toSeconds() + " s (both clusters' start-up"
                        + " included).\n\n" + setupText(setup));
        report.section(
                "Latency and throughput",
                "Median over " + setup.rounds() + " rounds of each batch's figure. new/old above 1: the new jars take"
                        + " longer (or, for throughput, serve more). Paired: the median of each round's own new/old"
                        + " (both halves of a round ran back to back, so a slow window of the machine mostly cancels)."
                        + " Requests are sequential (one client): throughput is a batch's requests over its wall time.",
                latencyTable(results));
        report.section(
                "CPU per request",
                "CPU time (user + system, from /proc/<pid>/stat) each tier's processes spent during a batch, divided"
                        + " by its requests; median over rounds. postgres: the postmaster, its backends and those that"
                        + " exited. Clock ticks are 10 ms, so short batches read coarsely.",
                cpuTable(results));
        if (setup.cache()) {
            RoundFigures push = RoundFigures.of(results, Kind.BUY, BatchResult::invalidationPushMillis);
            report.section(
                    "Invalidation per buy",
                    "What a buy's stock write waits for its cache invalidation to reach every frontend, timed in the"
                            + " catalog (`agora.invalidation.push`, its sum and count read before and after each buy"
                            + " batch): median over rounds of each batch's mean.",
                    Table.with("old ms", "new ms", "new - old ms", "new/old")
                            .row(
                                    format(push.baselineMedian()),
                                    format(push.candidateMedian()),
                                    format(push.candidateMedian() - push.baselineMedian()),
                                    format(push.ratio()))
                            .build());
        }
        report.section("Rounds", "Every batch in the order it ran.", roundsTable(results));
        long failures = results.stream().mapToLong(BatchResult::failures).sum();
        if (failures > 0) {
            report.note(failures + " measured answers were not 2xx; first of each batch: " + firstFailures(results));
        }
        report.note("Figures from one machine in one window: compare the two columns, not these numbers with"
                + " another run's.");
        report.raw("setup", setup);
        report.raw("batches", results);
        return report.build();
    }

    static String headline(List<BatchResult> results) {
        List<String> parts = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            RoundFigures p50 =
                    RoundFigures.of(results, kind, result -> result.latency().p50Ms());
            parts.add(kind.label() + " p50 " + format(p50.baselineMedian()) + " -> " + format(p50.candidateMedian())
                    + " ms (new/old " + format(p50.ratio()) + ")");
        }
        long failures = results.stream().mapToLong(BatchResult::failures).sum();
        return String.join("; ", parts) + (failures > 0 ? "; " + failures + " non-2xx answers" : "");
    }

    private static String setupText(Setup setup) {
        StringBuilder text = new StringBuilder();
        for (Side side : Side.values()) {
            SettledWarmUp.WarmedUp warmed = setup.warmedUp().get(side);
            text.append("- ")
                    .append(TwoTrees.describe(side, setup.commits(), setup.trees()))
                    .append(", ")
                    .append(setup.access().get(side))
                    .append(", ")
                    .append(warmed.describe("slice"))
                    .append(", ")
                    .append(warmed.failures())
                    .append(" non-2xx answers in its warm-up\n");
        }
        text.append("- shape: ")
                .append(setup.shape())
                .append(", no exchange, `--jvm throughput`, cache ")
                .append(setup.cache() ? "on" : "off")
                .append('\n');
        text.append("- each cluster warmed up for at least ")
                .append(setup.warmUp().toSeconds())
                .append(" s and then on until its JIT compilers took under ")
                .append(format(setup.settledJit() * 100))
                .append("% of its CPU over a slice (alternating slices, search/lookup/lookup/buy with at most ")
                .append(setup.warmUpBuys())
                .append(" buys), then ")
                .append(setup.rounds())
                .append(" rounds of ")
                .append(setup.reads())
                .append(" sequential searches, ")
                .append(setup.reads())
                .append(" lookups and ")
                .append(setup.buys())
                .append(" buys per cluster, which cluster goes first alternating by round\n");
        return text.toString();
    }

    private static Table latencyTable(List<BatchResult> results) {
        Table.Builder table = Table.with(
                "kind",
                "old p50 ms",
                "new p50 ms",
                "p50 new/old",
                "p50 paired",
                "old p99 ms",
                "new p99 ms",
                "p99 new/old",
                "old req/s",
                "new req/s",
                "old non-2xx",
                "new non-2xx");
        for (Kind kind : Kind.values()) {
            RoundFigures p50 =
                    RoundFigures.of(results, kind, result -> result.latency().p50Ms());
            RoundFigures p99 =
                    RoundFigures.of(results, kind, result -> result.latency().p99Ms());
            RoundFigures rate =
                    RoundFigures.of(results, kind, result -> result.latency().throughputPerSecond());
            table.row(
                    kind.label(),
                    format(p50.baselineMedian()),
                    format(p50.candidateMedian()),
                    format(p50.ratio()),
                    format(p50.pairedRatio()),
                    format(p99.baselineMedian()),
                    format(p99.candidateMedian()),
                    format(p99.ratio()),
                    format(rate.baselineMedian()),
                    format(rate.candidateMedian()),
                    failures(results, kind, Side.BASELINE),
                    failures(results, kind, Side.CANDIDATE));
        }
        return table.build();
    }

    private static Table cpuTable(List<BatchResult> results) {
        Table.Builder table = Table.with("kind", "tier", "old CPU ms/req", "new CPU ms/req", "new/old");
        for (Kind kind : Kind.values()) {
            for (CpuTier tier : CpuTier.values()) {
                RoundFigures cpu = RoundFigures.of(results, kind, result -> result.cpuMillisPerRequest(tier));
                table.row(
                        kind.label(),
                        tier.label(),
                        format(cpu.baselineMedian()),
                        format(cpu.candidateMedian()),
                        format(cpu.ratio()));
            }
        }
        return table.build();
    }

    private static Table roundsTable(List<BatchResult> results) {
        List<String> headers = new ArrayList<>(
                List.of("round", "kind", "cluster", "requests", "p50 ms", "p99 ms", "req/s", "non-2xx"));
        for (CpuTier tier : CpuTier.values()) headers.add(tier.label() + " CPU ms");
        Table.Builder table = Table.with(headers.toArray(String[]::new));
        for (BatchResult result : results) {
            List<Object> cells = new ArrayList<>(List.of(
                    result.batch().round() + 1,
                    result.batch().kind().label(),
                    result.batch().side().label(),
                    result.latency().count(),
                    format(result.latency().p50Ms()),
                    format(result.latency().p99Ms()),
                    format(result.latency().throughputPerSecond()),
                    result.failures()));
            for (CpuTier tier : CpuTier.values()) {
                Double millis = result.cpuMillis().get(tier);
                cells.add(millis == null ? "-" : format(millis));
            }
            table.row(cells.toArray());
        }
        return table.build();
    }

    private static long failures(List<BatchResult> results, Kind kind, Side side) {
        return results.stream()
                .filter(result ->
                        result.batch().kind() == kind && result.batch().side() == side)
                .mapToLong(BatchResult::failures)
                .sum();
    }

    private static String firstFailures(List<BatchResult> results) {
        Map<String, String> first = new LinkedHashMap<>();
        for (BatchResult result : results) {
            if (result.failures() == 0) continue;
            first.putIfAbsent(
                    result.batch().kind().label() + " " + result.batch().side().label(), result.firstFailure());
        }
        return first.toString();
    }
}
