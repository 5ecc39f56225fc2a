package dev.agora.perf.compare;

import dev.agora.perf.load.Bookstore;
import dev.agora.perf.load.HttpDriver;
import dev.agora.perf.load.HttpReply;
import dev.agora.perf.report.Report;
import dev.agora.perf.report.ReportWriter;
import dev.agora.perf.stats.LatencyHistogram;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
        name = "start-up",
        mixinStandardHelpOptions = true,
        description = {
            "Measures how soon an old commit's cluster and this tree's serve, in one run on this machine: each tree's"
                    + " launcher starts the default cluster as people run it (its own JVM and AOT defaults), fresh"
                    + " and then again on the same data directory, alternating which tree goes first.",
            "Per start: seconds from the command to the first answered lookup and to the first authenticated buy."
                    + " After each fresh start: the p50 of the first sequential buys, and of as many after a few"
                    + " thousand more, with the server CPU per buy then.",
            "Before the measured starts each tree starts once and waits for its launcher's background AOT training,"
                    + " so that every measured start runs from a tree as built and started once."
        })
public final class StartUpCommand implements Callable<Integer> {

    private static final Duration POLL = Duration.ofMillis(100);
    private static final String AOT_TRAINED = "AOT training done";

    @Option(
            names = "--runs",
            defaultValue = "3",
            description = "Starts of each kind per tree (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(
            names = "--first-buys",
            defaultValue = "100",
            description =
                    "Sequential buys measured right after a fresh start, and again later (default: ${DEFAULT-VALUE}).")
    int firstBuys;

    @Option(
            names = "--later-after",
            defaultValue = "3000",
            description = "Buys after the first ones before the later ones are measured (default: ${DEFAULT-VALUE}).")
    int laterAfter;

    @Option(
            names = "--work-dir",
            defaultValue = "data/start-up",
            description = "Where both clusters keep their state and launcher logs (default: ${DEFAULT-VALUE}).")
    Path workDirectory;

    @Mixin
    TwoTrees trees;

    /** One measured start of one tree. */
    record Start(Side side, boolean fresh, int run, double lookupSeconds, double buySeconds, Buys buys) {}

    /**
     * The buys measured after a fresh start.
     *
     * @param firstP50Ms p50 of the first sequential buys, sent as soon as one buy was answered
     * @param laterP50Ms p50 of as many, after {@code laterAfter} more
     * @param laterCpuMsPerBuy server CPU (every instance and PostgreSQL) per buy during the later ones
     * @param failures buys among all of them that were not answered 2xx
     */
    record Buys(double firstP50Ms, double laterP50Ms, double laterCpuMsPerBuy, long failures) {}

    @Override
    public Integer call() throws Exception {
        if (runs < 1 || firstBuys < 1 || laterAfter < 0) {
            throw new IllegalArgumentException("--runs and --first-buys > 0, --later-after >= 0");
        }
        trees.check();
        long buysPerFreshStart = 1 + 2L * firstBuys + laterAfter;
        long stock = Bookstore.BOOK_IDS.size() * 1000L;
        if (buysPerFreshStart > stock) {
            throw new IllegalArgumentException("a fresh cluster holds " + stock + " copies: at most that many buys");
        }
        PrintStream out = System.out;
        Map<Side, String> commits = trees.commits();
        Path work = workDirectory.toAbsolutePath().normalize();
        Instant startedAt = Instant.now();
        for (Side side : Side.values()) {
            out.printf(
                    "Priming the %s tree (%s): one start, then its background AOT training ...%n",
                    side.label(), trees.tree(side));
            try (LaunchedCluster cluster = launch(side, trees.tree(side), work, trees.portOffset(side), true)) {
                firstAnswers(cluster, trees.portOffset(side), System.nanoTime());
                cluster.awaitReady(trees.readyTimeout);
                awaitTraining(cluster);
            }
        }
        List<Start> starts = new ArrayList<>();
        for (int run = 0; run < runs; run++) {
            List<Side> order =
                    run % 2 == 0 ? List.of(Side.BASELINE, Side.CANDIDATE) : List.of(Side.CANDIDATE, Side.BASELINE);
            for (boolean fresh : List.of(true, false)) {
                for (Side side : order) {
                    Start start = measure(side, trees.tree(side), work, trees.portOffset(side), fresh, run);
                    starts.add(start);
                    out.printf(
                            Locale.ROOT,
                            "run %d %s %-7s lookup after %.1f s, buy after %.1f s%s%n",
                            run + 1,
                            side.label(),
                            fresh ? "fresh" : "restart",
                            start.lookupSeconds(),
                            start.buySeconds(),
                            start.buys() == null
                                    ? ""
                                    : String.format(
                                            Locale.ROOT,
                                            "; first %d buys p50 %.1f ms, later %.1f ms, %.2f ms CPU per buy",
                                            firstBuys,
                                            start.buys().firstP50Ms(),
                                            start.buys().laterP50Ms(),
                                            start.buys().laterCpuMsPerBuy()));
                }
            }
        }
        StartUpReport.Setup setup = new StartUpReport.Setup(commits, trees.trees(), runs, firstBuys, laterAfter);
        Report report = StartUpReport.build(setup, starts, startedAt, Duration.between(startedAt, Instant.now()))
                .measuring(TwoTrees.commitPair(commits), "Each launcher with its own defaults, as people start it.");
        List<Path> written = ReportWriter.write(report, trees.output);
        out.println(report.headline());
        out.println("Report: " + written);
        return 0;
    }

    private Start measure(Side side, Path tree, Path work, int offset, boolean fresh, int run) throws Exception {
        long command = System.nanoTime();
        try (LaunchedCluster cluster = launch(side, tree, work, offset, fresh)) {
            FirstAnswers answered = firstAnswers(cluster, offset, command);
            Buys buys = fresh ? buys(cluster, offset) : null;
            return new Start(side, fresh, run, answered.lookupSeconds(), answered.buySeconds(), buys);
        }
    }

    private LaunchedCluster launch(Side side, Path tree, Path work, int offset, boolean fresh) throws Exception {
        List<String> arguments = new ArrayList<>(List.of(
                "cluster",
                "--data-dir",
                work.resolve(side.label()).toString(),
                "--port-offset",
                Integer.toString(offset),
                "--postgres-port",
                "0"));
        if (fresh) arguments.add(1, "--fresh");
        return LaunchedCluster.launch(side, tree, work, offset, arguments, true);
    }

    private record FirstAnswers(double lookupSeconds, double buySeconds) {}

    /**
     * Seconds from {@code command} to the first 200 on a lookup at the first frontend, and to the first 2xx on an
     * authenticated buy there (as soon as the launcher has written the demo credentials).
     */
    private FirstAnswers firstAnswers(LaunchedCluster cluster, int offset, long command) throws InterruptedException {
        String frontend = frontend(offset);
        long deadline = command + trees.readyTimeout.toNanos();
        try (HttpDriver http = new HttpDriver(2)) {
            while (http.get(frontend + "/api/books/1").status() != 200) pause(cluster, deadline, "a lookup");
            double lookup = secondsSince(command);
            while (true) {
                ClusterAccess access = ClusterAccess.read(cluster.credentialsFile());
                if (access.buysNeedToken()) {
                    try (var tokens = access.tokens()) {
                        HttpReply reply = new Bookstore(http, tokens).buy(frontend, 1, 1);
                        if (reply.isSuccess()) return new FirstAnswers(lookup, secondsSince(command));
                    } catch (IllegalStateException noTokenYet) {
                        // the token endpoint is not serving yet
                    }
                }
                pause(cluster, deadline, "an authenticated buy");
            }
        }
    }

    /** The first buys right away, then {@code laterAfter} unmeasured, then as many again with the server's CPU. */
    private Buys buys(LaunchedCluster cluster, int offset) throws InterruptedException {
        String frontend = frontend(offset);
        ClusterAccess access = ClusterAccess.read(cluster.credentialsFile());
        try (HttpDriver http = new HttpDriver(2);
                var tokens = access.tokens().prefetch()) {
            SequentialBuys buying = new SequentialBuys(new Bookstore(http, tokens), frontend);
            LatencyHistogram first = buying.send(firstBuys);
            buying.send(laterAfter);
            cluster.awaitReady(trees.readyTimeout); // the pids, for the CPU figure; ready long since
            Map<CpuTier, Long> before = cluster.cpuTicks();
            LatencyHistogram later = buying.send(firstBuys);
            double cpuMs = cluster.cpuMillisSince(before).values().stream()
                            .mapToDouble(Double::doubleValue)
                            .sum()
                    / firstBuys;
            return new Buys(first.percentileMillis(50), later.percentileMillis(50), cpuMs, buying.failures);
        }
    }

    /** One customer's buys, one copy each, to the seven books in turn; counts those not answered 2xx. */
    private static final class SequentialBuys {
        private final Bookstore bookstore;
        private final String frontend;
        private long sent;
        private long failures;

        SequentialBuys(Bookstore bookstore, String frontend) {
            this.bookstore = bookstore;
            this.frontend = frontend;
        }

        LatencyHistogram send(int count) {
            LatencyHistogram latencies = new LatencyHistogram();
            for (int i = 0; i < count; i++) {
                long book = Bookstore.BOOK_IDS.get((int) (sent++ % Bookstore.BOOK_IDS.size()));
                long started = System.nanoTime();
                if (!bookstore.buy(frontend, book, 1).isSuccess()) failures++;
                latencies.recordNanos(System.nanoTime() - started);
            }
            return latencies;
        }
    }

    private void awaitTraining(LaunchedCluster cluster) throws InterruptedException {
        long deadline = System.nanoTime() + trees.readyTimeout.toNanos();
        // No training under way (caches of this build already there, or a launcher from before them): no wait.
        if (!cluster.launcherSaid("being trained in the background")) return;
        while (!cluster.launcherSaid(AOT_TRAINED)) pause(cluster, deadline, "the AOT training");
    }

    private static String frontend(int offset) {
        return "http://127.0.0.1:" + (8080 + offset);
    }

    private static void pause(LaunchedCluster cluster, long deadline, String what) throws InterruptedException {
        if (System.nanoTime() > deadline) {
            throw new IllegalStateException("The " + cluster.side().label() + " cluster did not answer " + what
                    + " in time; see its launcher log in "
                    + cluster.dataDirectory().getParent());
        }
        Thread.sleep(POLL);
    }

    private static double secondsSince(long nanos) {
        return (System.nanoTime() - nanos) / 1e9;
    }
}
