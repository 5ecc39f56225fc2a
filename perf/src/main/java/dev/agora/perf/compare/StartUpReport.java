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
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/** The report of {@link StartUpCommand}: medians per tree and kind of start, and every start as it ran. */
final class StartUpReport {

    private static final DateTimeFormatter WHEN =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    /** What ran: per side its commit and tree, and the counts. */
    record Setup(Map<Side, String> commits, Map<Side, Path> trees, int runs, int firstBuys, int laterAfter) {}

    private StartUpReport() {}

    static Report build(Setup setup, List<StartUpCommand.Start> starts, Instant startedAt, Duration duration) {
        String title = "Start-up, old jars (" + setup.commits().get(Side.BASELINE) + ") against new ("
                + setup.commits().get(Side.CANDIDATE) + "), alternating in one run";
        Report.Builder report = Report.builder("start-up", title).timing(startedAt, duration);
        report.headline(headline(starts));
        StringBuilder text = new StringBuilder("Measured " + WHEN.format(startedAt) + " in " + duration.toSeconds()
                + " s. Each tree's launcher (`java -jar launcher/target/agora.jar`, the README's run command once"
                + " built) started its default cluster with its own defaults, on its own data directory, after one"
                + " unmeasured start that let it train its AOT caches.\n\n");
        for (Side side : Side.values()) {
            text.append("- ")
                    .append(TwoTrees.describe(side, setup.commits(), setup.trees()))
                    .append('\n');
        }
        text.append("- ")
                .append(setup.runs())
                .append(" runs; in each, a fresh start (`--fresh`) of both trees, then a restart on the same data"
                        + " directory of both, which tree goes first alternating by run\n- after each fresh start ")
                .append(setup.firstBuys())
                .append(" sequential buys at once, ")
                .append(setup.laterAfter())
                .append(" more, then ")
                .append(setup.firstBuys())
                .append(" measured again with the CPU of every instance and PostgreSQL\n");
        report.section("Setup", text.toString());
        report.section(
                "Medians",
                "Seconds from the command to the first answered lookup and the first answered authenticated buy at"
                        + " the first frontend; buy p50s of one sequential client; median over runs.",
                medians(starts));
        report.section("Every start", "In the order they ran.", every(starts));
        long failures = starts.stream()
                .map(StartUpCommand.Start::buys)
                .filter(Objects::nonNull)
                .mapToLong(StartUpCommand.Buys::failures)
                .sum();
        if (failures > 0) report.note(failures + " of the measured buys were not answered 2xx.");
        report.note("Figures from one machine in one window: compare the two columns, not these numbers with"
                + " another run's.");
        report.raw("setup", setup);
        report.raw("starts", starts);
        return report.build();
    }

    static String headline(List<StartUpCommand.Start> starts) {
        return "fresh start to first buy " + pair(starts, true, StartUpCommand.Start::buySeconds) + " s; restart "
                + pair(starts, false, StartUpCommand.Start::buySeconds) + " s; first buys p50 "
                + pair(starts, true, start -> start.buys().firstP50Ms()) + " ms, later "
                + pair(starts, true, start -> start.buys().laterP50Ms()) + " ms";
    }

    private static String pair(
            List<StartUpCommand.Start> starts, boolean fresh, ToDoubleFunction<StartUpCommand.Start> figure) {
        double old = median(starts, Side.BASELINE, fresh, figure);
        double candidate = median(starts, Side.CANDIDATE, fresh, figure);
        return format(old) + " -> " + format(candidate);
    }

    private static Table medians(List<StartUpCommand.Start> starts) {
        Table.Builder table = Table.with("figure", "old", "new", "new/old");
        row(table, "fresh: first lookup, s", starts, true, StartUpCommand.Start::lookupSeconds);
        row(table, "fresh: first buy, s", starts, true, StartUpCommand.Start::buySeconds);
        row(table, "restart: first lookup, s", starts, false, StartUpCommand.Start::lookupSeconds);
        row(table, "restart: first buy, s", starts, false, StartUpCommand.Start::buySeconds);
        row(table, "first buys p50, ms", starts, true, start -> start.buys().firstP50Ms());
        row(table, "later buys p50, ms", starts, true, start -> start.buys().laterP50Ms());
        row(
                table,
                "first/later p50",
                starts,
                true,
                start -> start.buys().firstP50Ms() / start.buys().laterP50Ms());
        row(table, "later: server CPU per buy, ms", starts, true, start -> start.buys()
                .laterCpuMsPerBuy());
        return table.build();
    }

    private static void row(
            Table.Builder table,
            String label,
            List<StartUpCommand.Start> starts,
            boolean fresh,
            ToDoubleFunction<StartUpCommand.Start> figure) {
        double old = median(starts, Side.BASELINE, fresh, figure);
        double candidate = median(starts, Side.CANDIDATE, fresh, figure);
        table.row(label, format(old), format(candidate), format(candidate / old));
    }

    private static Table every(List<StartUpCommand.Start> starts) {
        Table.Builder table = Table.with(
                "run",
                "tree",
                "start",
                "lookup s",
                "buy s",
                "first buys p50 ms",
                "later p50 ms",
                "CPU ms/buy",
                "non-2xx");
        for (StartUpCommand.Start start : starts) {
            StartUpCommand.Buys buys = start.buys();
            table.row(
                    start.run() + 1,
                    start.side().label(),
                    start.fresh() ? "fresh" : "restart",
                    format(start.lookupSeconds()),
                    format(start.buySeconds()),
                    buys == null ? "-" : format(buys.firstP50Ms()),
                    buys == null ? "-" : format(buys.laterP50Ms()),
                    buys == null ? "-" : format(buys.laterCpuMsPerBuy()),
                    buys == null ? "-" : buys.failures());
        }
        return table.build();
    }

    static double median(
            List<StartUpCommand.Start> starts,
            Side side,
            boolean fresh,
            ToDoubleFunction<StartUpCommand.Start> figure) {
        return PairedRounds.median(starts.stream()
                .filter(start -> start.side() == side && start.fresh() == fresh)
                .map(start -> figure.applyAsDouble(start))
                .toList());
    }
}
