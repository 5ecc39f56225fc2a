package dev.agora.perf.compare;

import static dev.agora.perf.stats.Numbers.format;

import dev.agora.perf.report.Report;
import dev.agora.perf.report.Table;
import dev.agora.perf.stats.PairedRounds;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/** The report of {@link BuyCostCommand}: medians per tree and client count, the gates of #54, every batch. */
final class BuyCostReport {

    /** The gates: server CPU per authenticated buy in all, and buys per second from 10 to 32 clients. */
    static final double CPU_MS_PER_BUY_GOAL = 2.5;

    static final double BUYS_PER_SECOND_GOAL = 600;

    private static final DateTimeFormatter WHEN =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    record Setup(
            Map<Side, String> commits,
            Map<Side, Path> trees,
            String shape,
            int rounds,
            List<Integer> clients,
            int buys,
            Duration warmUp,
            double settledJit,
            Map<Side, SettledWarmUp.WarmedUp> warmedUp) {}

    private BuyCostReport() {}

    static Report build(Setup setup, List<BuyCostCommand.Batch> batches, Instant startedAt, Duration duration) {
        String title = "A buy's server CPU and buys per second, old jars ("
                + setup.commits().get(Side.BASELINE) + ") against new ("
                + setup.commits().get(Side.CANDIDATE) + "), alternating rounds in one run";
        Report.Builder report = Report.builder(BuyCostCommand.NAME, title).timing(startedAt, duration);
        report.headline(headline(setup, batches));
        StringBuilder text = new StringBuilder("Measured " + WHEN.format(startedAt) + " in " + duration.toSeconds()
                + " s (both clusters' start-up included). Both clusters ran side by side, each " + setup.shape()
                + " with full tiered JIT (`--jvm throughput`) and no exchange, driven one at a time.\n\n");
        for (Side side : Side.values()) {
            SettledWarmUp.WarmedUp warmed = setup.warmedUp().get(side);
            text.append("- ")
                    .append(TwoTrees.describe(side, setup.commits(), setup.trees()))
                    .append(", ")
                    .append(warmed.describe("slice of buys"))
                    .append(", warm-up answers not 2xx: ")
                    .append(warmed.failures())
                    .append('\n');
        }
        text.append("- warm-up: buys from ")
                .append(setup.clients().getFirst())
                .append(" buyers per cluster for at least ")
                .append(setup.warmUp().toSeconds())
                .append(" s, then on until its JIT compilers took under ")
                .append(format(setup.settledJit() * 100))
                .append(
                        "% of its CPU over a slice of about 15 s of buys (a JVM compiles the buy's code over many thousands of buys;"
                                + " a batch measured meanwhile counts the compilers' CPU as the buys')\n- ")
                .append(setup.rounds())
                .append(" rounds; in each, a batch of ")
                .append(setup.buys())
                .append(" buys per client count (")
                .append(setup.clients())
                .append(") on each cluster, which cluster goes first alternating by round\n"
                        + "- a buy: the demo customer's bearer token, one copy of one of seven books, a fresh"
                        + " `Idempotency-Key`; buyers spread over the frontends; each buyer waits for its answer\n"
                        + "- server CPU: utime + stime from /proc of every frontend, catalog and order process and of"
                        + " PostgreSQL's postmaster with its backends, over the batch, divided by its buys; \"of which JIT"
                        + " compilers\" is the part of the JVMs' CPU their C1 and C2 compiler threads took\n");
        report.section("Setup", text.toString());
        report.section(
                "Medians",
                "Median over rounds of each batch's figure. Goals (#54): server CPU per buy at most "
                        + format(CPU_MS_PER_BUY_GOAL) + " ms in all at 10 clients, at least "
                        + format(BUYS_PER_SECOND_GOAL) + " buys/s from 10 to 32 clients.",
                medians(setup, batches));
        report.section("Every batch", "In the order they ran.", every(batches));
        long failures =
                batches.stream().mapToLong(BuyCostCommand.Batch::failures).sum();
        if (failures > 0) {
            String example = batches.stream()
                    .map(BuyCostCommand.Batch::firstFailure)
                    .filter(example1 -> !example1.isEmpty())
                    .findFirst()
                    .orElse("");
            report.note(failures + " measured buys were not answered 2xx; the first: " + example);
        }
        report.note("Figures from one machine in one window: compare the two columns, not these numbers with"
                + " another run's.");
        report.raw("setup", setup);
        report.raw("batches", batches);
        return report.build();
    }

    static String headline(Setup setup, List<BuyCostCommand.Batch> batches) {
        int first = setup.clients().getFirst();
        StringBuilder headline = new StringBuilder("server CPU per buy at " + first + " clients "
                + pair(batches, first, BuyCostCommand.Batch::cpuMsPerBuy) + " ms");
        for (int clients : setup.clients()) {
            headline.append("; buys/s at ")
                    .append(clients)
                    .append(" clients ")
                    .append(pair(batches, clients, BuyCostCommand.Batch::buysPerSecond));
        }
        return headline.toString();
    }

    private static String pair(
            List<BuyCostCommand.Batch> batches, int clients, ToDoubleFunction<BuyCostCommand.Batch> figure) {
        return format(median(batches, Side.BASELINE, clients, figure)) + " -> "
                + format(median(batches, Side.CANDIDATE, clients, figure));
    }

    private static Table medians(Setup setup, List<BuyCostCommand.Batch> batches) {
        Table.Builder table = Table.with("figure", "old", "new", "new/old");
        for (int clients : setup.clients()) {
            String at = " (" + clients + " clients)";
            row(table, "server CPU per buy, ms" + at, batches, clients, BuyCostCommand.Batch::cpuMsPerBuy);
            for (CpuTier tier : CpuTier.values()) {
                row(
                        table,
                        "of which " + tier.label() + ", ms" + at,
                        batches,
                        clients,
                        batch -> batch.cpuMsPerBuy(tier));
            }
            row(table, "of which JIT compilers, ms" + at, batches, clients, BuyCostCommand.Batch::compilerMsPerBuy);
            row(table, "buys/s" + at, batches, clients, BuyCostCommand.Batch::buysPerSecond);
            row(table, "p50, ms" + at, batches, clients, BuyCostCommand.Batch::p50Ms);
            row(table, "p99, ms" + at, batches, clients, BuyCostCommand.Batch::p99Ms);
        }
        return table.build();
    }

    private static void row(
            Table.Builder table,
            String label,
            List<BuyCostCommand.Batch> batches,
            int clients,
            ToDoubleFunction<BuyCostCommand.Batch> figure) {
        double old = median(batches, Side.BASELINE, clients, figure);
        double candidate = median(batches, Side.CANDIDATE, clients, figure);
        table.row(label, format(old), format(candidate), format(candidate / old));
    }

    private static Table every(List<BuyCostCommand.Batch> batches) {
        Table.Builder table = Table.with(
                "round",
                "tree",
                "clients",
                "buys",
                "buys/s",
                "p50 ms",
                "p99 ms",
                "CPU ms/buy",
                "JIT ms/buy",
                "non-2xx");
        for (BuyCostCommand.Batch batch : batches) {
            table.row(
                    batch.round() + 1,
                    batch.side().label(),
                    batch.clients(),
                    batch.buys(),
                    format(batch.buysPerSecond()),
                    format(batch.p50Ms()),
                    format(batch.p99Ms()),
                    format(batch.cpuMsPerBuy()),
                    format(batch.compilerMsPerBuy()),
                    batch.failures());
        }
        return table.build();
    }

    static double median(
            List<BuyCostCommand.Batch> batches, Side side, int clients, ToDoubleFunction<BuyCostCommand.Batch> figure) {
        return PairedRounds.median(batches.stream()
                .filter(batch -> batch.side() == side && batch.clients() == clients)
                .map(batch -> figure.applyAsDouble(batch))
                .toList());
    }
}
