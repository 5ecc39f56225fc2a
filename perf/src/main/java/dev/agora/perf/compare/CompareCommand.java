package dev.agora.perf.compare;

import dev.agora.perf.report.MachineLoad;
import dev.agora.perf.report.Report;
import dev.agora.perf.report.ReportWriter;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
        name = "compare",
        mixinStandardHelpOptions = true,
        description = {
            "Measures an old commit's jars against this tree's in one run on this machine: starts both clusters"
                    + " (each with its own tree's launcher), warms both up, then runs rounds of sequential searches,"
                    + " lookups and buys against one and then the other, alternating which goes first.",
            "Reports per kind the median over rounds of p50 and p99 for old and new, their ratio, throughput and the"
                    + " CPU time per request of every tier (frontend, catalog, order, PostgreSQL).",
            "Build the old tree first: git worktree add --detach /tmp/old <commit> && (cd /tmp/old && ./mvnw -o -q"
                    + " -DskipTests package)"
        })
public final class CompareCommand implements Callable<Integer> {

    /**
     * Buys the warm-up makes on each cluster at most (fewer where an unrestockable cluster holds less). Enough for the
     * JIT to have compiled the buy's own code with C2 (its thresholds are in the thousands of calls per method, and
     * the code only buys run, security's bearer-token path among it, sees no other request): with 2,000 the new
     * jars' buys were still getting faster round by round while the old ones' were flat.
     */
    static final long WARM_UP_BUYS = 15_000;

    private static final Duration WARM_UP_SLICE = Duration.ofSeconds(10);

    @Option(names = "--rounds", defaultValue = "8", description = "Rounds (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(
            names = "--reads",
            defaultValue = "1000",
            description = "Searches and lookups per batch (default: ${DEFAULT-VALUE}).")
    int reads;

    @Option(names = "--buys", defaultValue = "200", description = "Buys per batch (default: ${DEFAULT-VALUE}).")
    int buys;

    @Option(
            names = "--warm-up",
            defaultValue = "90s",
            converter = DurationConverter.class,
            description = "Warm-up of each cluster, at least this long, e.g. 90s or 2m (default: ${DEFAULT-VALUE});"
                    + " then on until its JIT compilers are done (--settled-jit).")
    Duration warmUp;

    @Option(
            names = "--settled-jit",
            defaultValue = "0.05",
            description = "The warm-up of a cluster ends once its JIT compiler threads took less than this share of"
                    + " its CPU over a slice (default: ${DEFAULT-VALUE}).")
    double settledJit;

    @Option(
            names = "--warm-up-limit",
            defaultValue = "10m",
            converter = DurationConverter.class,
            description = "Longest warm-up per cluster, settled or not (default: ${DEFAULT-VALUE}).")
    Duration warmUpLimit;

    @Option(
            names = "--cache",
            defaultValue = "on",
            description =
                    "on, or off: the frontends' cache and the invalidations off in both (default: ${DEFAULT-VALUE}).")
    String cache;

    @Option(
            names = "--frontends",
            defaultValue = "1",
            description = "Frontends per cluster (default: ${DEFAULT-VALUE}).")
    int frontends;

    @Option(names = "--catalogs", defaultValue = "1", description = "Catalogs per cluster (default: ${DEFAULT-VALUE}).")
    int catalogs;

    @Option(
            names = "--orders",
            defaultValue = "1",
            description = "Order services per cluster (default: ${DEFAULT-VALUE}).")
    int orders;

    @Option(
            names = "--work-dir",
            defaultValue = "data/compare",
            description = "Where both clusters keep their state and launcher logs, wiped at start (default:"
                    + " ${DEFAULT-VALUE}).")
    Path workDirectory;

    @Mixin
    TwoTrees trees;

    @Override
    public Integer call() throws Exception {
        boolean cacheOn =
                switch (cache) {
                    case "on" -> true;
                    case "off" -> false;
                    default -> throw new IllegalArgumentException("--cache is on or off, not " + cache);
                };
        if (rounds < 1 || reads < 1 || buys < 1) throw new IllegalArgumentException("--rounds, --reads, --buys > 0");
        SettledWarmUp.check(warmUp, settledJit, warmUpLimit);
        trees.check();
        PrintStream out = System.out;
        Instant startedAt = Instant.now();
        Map<Side, String> commits = trees.commits();
        try (StoppedOnExit started = new StoppedOnExit("agora-compare-stop")) {
            Map<Side, SideDriver> drivers = new EnumMap<>(Side.class);
            for (Side side : Side.values()) {
                Path work = workDirectory.toAbsolutePath().normalize();
                List<String> arguments = LaunchedCluster.clusterArguments(
                        work.resolve(side.label()), trees.portOffset(side), frontends, catalogs, orders, cacheOn);
                out.printf(
                        "Starting the %s cluster from %s at port offset %d ...%n",
                        side.label(), trees.tree(side), trees.portOffset(side));
                LaunchedCluster cluster =
                        LaunchedCluster.launch(side, trees.tree(side), work, trees.portOffset(side), arguments);
                started.add(cluster);
                cluster.awaitReady(trees.readyTimeout);
                ClusterAccess access = ClusterAccess.read(cluster.credentialsFile());
                SideDriver driver = new SideDriver(cluster, access);
                started.addFirst(driver);
                drivers.put(side, driver);
                out.printf("  ready: %s, %s%n", cluster.shape(), access.describe());
            }
            for (SideDriver driver : drivers.values()) driver.checkEachKind();
            long warmUpBuys = planStock(drivers, out);
            MachineLoad.Reading loadStart = MachineLoad.Reading.now();
            Map<Side, SettledWarmUp.WarmedUp> warmedUp = warmUp(drivers, warmUpBuys, out);
            List<BatchResult> results = new ArrayList<>();
            for (RoundSchedule.Batch batch : RoundSchedule.batches(rounds)) {
                int count = batch.kind() == Kind.BUY ? buys : reads;
                BatchResult result = drivers.get(batch.side()).measure(batch, count);
                results.add(result);
                out.printf(
                        Locale.ROOT,
                        "round %d %-6s %s: p50 %.3f ms, p99 %.3f ms, %d non-2xx%n",
                        batch.round() + 1,
                        batch.kind().label(),
                        batch.side().label(),
                        result.latency().p50Ms(),
                        result.latency().p99Ms(),
                        result.failures());
            }
            MachineLoad load = MachineLoad.between(loadStart, MachineLoad.Reading.now());
            Map<Side, String> treeNames = new EnumMap<>(Side.class);
            Map<Side, String> access = new EnumMap<>(Side.class);
            for (Side side : Side.values()) {
                treeNames.put(side, trees.tree(side).toString());
                access.put(side, drivers.get(side).access().describe());
            }
            CompareReport.Setup setup = new CompareReport.Setup(
                    commits,
                    treeNames,
                    access,
                    drivers.get(Side.CANDIDATE).cluster().shape(),
                    cacheOn,
                    rounds,
                    reads,
                    buys,
                    warmUp,
                    settledJit,
                    warmUpBuys,
                    warmedUp);
            Report report = CompareReport.build(setup, results, startedAt, Duration.between(startedAt, Instant.now()))
                    .withLoad(load)
                    .measuring(
                            TwoTrees.commitPair(commits),
                            "Both clusters with full tiered JIT (`--jvm throughput`), warmed up for at least "
                                    + warmUp.toSeconds() + " s each and until their JIT compilers had settled.");
            List<Path> written = ReportWriter.write(report, trees.output);
            out.println(report.headline());
            out.println(report.sections().get(1).table().toMarkdown());
            out.println(report.sections().get(2).table().toMarkdown());
            out.println("Report: " + written);
            return 0;
        }
    }

    /**
     * Tops up the clusters that can be restocked and returns the warm-up buys both can afford (the same on both, so
     * both warm up alike).
     */
    private long planStock(Map<Side, SideDriver> drivers, PrintStream out) {
        long measured = (long) rounds * buys;
        Map<Side, StockPlan> plans = new EnumMap<>(Side.class);
        drivers.forEach((side, driver) -> plans.put(
                side,
                StockPlan.plan(
                        driver.stock(), measured, WARM_UP_BUYS, driver.access().canRestock())));
        long warmUpBuys =
                plans.values().stream().mapToLong(StockPlan::warmUpBuys).min().orElseThrow();
        drivers.forEach((side, driver) -> {
            long restockTo = plans.get(side).restockTo();
            if (restockTo > 0) {
                out.printf("Restocking the %s cluster to %d copies of each book%n", side.label(), restockTo);
                driver.restockTo(restockTo);
            }
        });
        return warmUpBuys;
    }

    /** Slices of 10 s on each cluster in turn until both have had the least warm-up and their compilers settled. */
    private Map<Side, SettledWarmUp.WarmedUp> warmUp(Map<Side, SideDriver> drivers, long warmUpBuys, PrintStream out) {
        Map<Side, long[]> budgets = new EnumMap<>(Side.class);
        Map<Side, LaunchedCluster> clusters = new EnumMap<>(Side.class);
        drivers.forEach((side, driver) -> {
            budgets.put(side, new long[] {warmUpBuys});
            clusters.put(side, driver.cluster());
        });
        return SettledWarmUp.run(
                "sequential searches, lookups and buys",
                clusters,
                (side, slice) -> drivers.get(side).warmUp(slice, budgets.get(side)),
                WARM_UP_SLICE,
                warmUp,
                settledJit,
                warmUpLimit,
                out);
    }

    /** "90s", "2m", "500ms", or ISO-8601 ("PT90S"). */
    static final class DurationConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            return parse(value);
        }

        static Duration parse(String value) {
            String text = value.strip().toLowerCase(Locale.ROOT);
            if (text.startsWith("pt")) return Duration.parse(text);
            if (text.endsWith("ms")) return Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)));
            if (text.endsWith("s")) return Duration.ofSeconds(Long.parseLong(text.substring(0, text.length() - 1)));
            if (text.endsWith("m")) return Duration.ofMinutes(Long.parseLong(text.substring(0, text.length() - 1)));
            throw new IllegalArgumentException("a duration like 90s, 2m or 500ms, not " + value);
        }
    }
}
