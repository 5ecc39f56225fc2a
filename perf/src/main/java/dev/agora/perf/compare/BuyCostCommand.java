package dev.agora.perf.compare;

import dev.agora.launcher.credentials.AccessTokens;
import dev.agora.local.process.ProcessFigures;
import dev.agora.perf.experiment.Stock;
import dev.agora.perf.experiment.Warmup;
import dev.agora.perf.load.Bookstore;
import dev.agora.perf.load.ClosedLoad;
import dev.agora.perf.load.HttpDriver;
import dev.agora.perf.load.LoadResult;
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
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
        name = "buy-cost",
        mixinStandardHelpOptions = true,
        description = {
            "What an authenticated buy costs the servers, an old commit's jars against this tree's in one run: both"
                    + " clusters (by default the launcher's 2 frontends, 2 catalogs, 2 order services, full tiered"
                    + " JIT, no exchange) run side by side and are driven in turn, alternating which goes first.",
            "Per batch: buys from N concurrent customers of perf's closed-loop load generator (each waits for its"
                    + " answer), the CPU time of every instance and of PostgreSQL around them, buys per second,"
                    + " p50 and p99. Medians over rounds."
        })
public final class BuyCostCommand implements Callable<Integer> {

    static final String NAME = "buy-cost";

    @Option(names = "--rounds", defaultValue = "3", description = "Rounds (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(
            names = "--clients",
            split = ",",
            defaultValue = "10,32",
            description = "Concurrent buyers of each batch in a round (default: ${DEFAULT-VALUE}).")
    List<Integer> clients;

    @Option(names = "--buys", defaultValue = "3000", description = "Buys per batch (default: ${DEFAULT-VALUE}).")
    int buys;

    @Option(
            names = "--warm-up",
            defaultValue = "2m",
            converter = CompareCommand.DurationConverter.class,
            description = "Buys from the first batch's clients to each cluster before measuring, at least this long"
                    + " (default: ${DEFAULT-VALUE}); then on until its JIT compilers are done (--settled-jit).")
    Duration warmUp;

    @Option(
            names = "--settled-jit",
            defaultValue = "0.05",
            description = "The warm-up of a cluster ends once its JIT compiler threads took less than this share of"
                    + " its CPU over a slice of buys (default: ${DEFAULT-VALUE}).")
    double settledJit;

    @Option(
            names = "--warm-up-limit",
            defaultValue = "15m",
            converter = CompareCommand.DurationConverter.class,
            description = "Longest warm-up per cluster, settled or not (default: ${DEFAULT-VALUE}).")
    Duration warmUpLimit;

    @Option(
            names = "--frontends",
            defaultValue = "2",
            description = "Frontends per cluster (default: ${DEFAULT-VALUE}).")
    int frontends;

    @Option(names = "--catalogs", defaultValue = "2", description = "Catalogs per cluster (default: ${DEFAULT-VALUE}).")
    int catalogs;

    @Option(names = "--orders", defaultValue = "2", description = "Order services (default: ${DEFAULT-VALUE}).")
    int orders;

    @Option(
            names = "--work-dir",
            defaultValue = "data/buy-cost",
            description = "Where both clusters keep their state and launcher logs (default: ${DEFAULT-VALUE}).")
    Path workDirectory;

    @Mixin
    TwoTrees trees;

    private static final Duration WARM_UP_SLICE = Duration.ofSeconds(15);
    private static final Duration COMPILERS_LIMIT = Duration.ofMinutes(2);

    /**
     * One measured batch.
     *
     * @param cpuMillis per tier, CPU time of all its processes during the batch
     * @param compilerMillis CPU time of the JVMs' JIT compiler threads during the batch (counted in cpuMillis too):
     *     near zero once the JIT is done with the buy's code, and the batch measures the buys alone
     */
    record Batch(
            int round,
            Side side,
            int clients,
            long buys,
            long failures,
            String firstFailure,
            double seconds,
            double p50Ms,
            double p99Ms,
            Map<CpuTier, Double> cpuMillis,
            double compilerMillis) {

        double buysPerSecond() {
            return buys / seconds;
        }

        double cpuMsPerBuy(CpuTier tier) {
            return cpuMillis.getOrDefault(tier, 0.0) / buys;
        }

        double cpuMsPerBuy() {
            return cpuMillis.values().stream().mapToDouble(Double::doubleValue).sum() / buys;
        }

        double compilerMsPerBuy() {
            return compilerMillis / buys;
        }
    }

    @Override
    public Integer call() throws Exception {
        if (rounds < 1 || buys < 1 || clients.isEmpty() || clients.stream().anyMatch(count -> count < 1)) {
            throw new IllegalArgumentException("--rounds, --buys and every --clients count > 0");
        }
        SettledWarmUp.check(warmUp, settledJit, warmUpLimit);
        trees.check();
        PrintStream out = System.out;
        Instant startedAt = Instant.now();
        Map<Side, String> commits = trees.commits();
        try (StoppedOnExit started = new StoppedOnExit("agora-buy-cost-stop")) {
            Map<Side, Buyers> buyers = new EnumMap<>(Side.class);
            Path work = workDirectory.toAbsolutePath().normalize();
            for (Side side : Side.values()) {
                List<String> arguments = LaunchedCluster.clusterArguments(
                        work.resolve(side.label()), trees.portOffset(side), frontends, catalogs, orders, true);
                out.printf("Starting the %s cluster from %s ...%n", side.label(), trees.tree(side));
                LaunchedCluster cluster =
                        LaunchedCluster.launch(side, trees.tree(side), work, trees.portOffset(side), arguments);
                started.add(cluster);
                cluster.awaitReady(trees.readyTimeout);
                ClusterAccess access = ClusterAccess.read(cluster.credentialsFile());
                if (!access.buysNeedToken() || !access.canRestock()) {
                    throw new IllegalStateException("The " + side.label() + " cluster has no demo customer and admin"
                            + " (" + access.describe() + "): buy-cost measures authenticated buys");
                }
                Buyers sideBuyers = new Buyers(cluster, access, maxClients());
                started.addFirst(sideBuyers);
                buyers.put(side, sideBuyers);
                out.printf("  ready: %s%n", cluster.shape());
            }
            MachineLoad.Reading loadStart = MachineLoad.Reading.now();
            Map<Side, SettledWarmUp.WarmedUp> warmedUp = warmUp(buyers, out);
            // A batch measured while the compilers still work on what the warm-up queued would count their CPU
            // as the buys'.
            Map<Side, String> compilers = new EnumMap<>(Side.class);
            for (Side side : Side.values()) {
                List<String> instances =
                        Warmup.bookstoreInstances(buyers.get(side).cluster()::urls);
                compilers.put(side, Warmup.awaitIdleCompilers(instances, COMPILERS_LIMIT));
                out.printf("  %s: %s%n", side.label(), compilers.get(side));
            }
            List<Batch> batches = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                List<Side> order = round % 2 == 0
                        ? List.of(Side.BASELINE, Side.CANDIDATE)
                        : List.of(Side.CANDIDATE, Side.BASELINE);
                for (int count : clients) {
                    for (Side side : order) {
                        Batch batch = buyers.get(side).measure(round, count, buys);
                        batches.add(batch);
                        out.printf(
                                Locale.ROOT,
                                "round %d %-3s %2d buyers: %.0f buys/s, p50 %.2f ms, p99 %.2f ms, %.2f ms CPU per buy,"
                                        + " %d non-2xx%n",
                                round + 1,
                                side.label(),
                                count,
                                batch.buysPerSecond(),
                                batch.p50Ms(),
                                batch.p99Ms(),
                                batch.cpuMsPerBuy(),
                                batch.failures());
                    }
                }
            }
            MachineLoad load = MachineLoad.between(loadStart, MachineLoad.Reading.now());
            BuyCostReport.Setup setup = new BuyCostReport.Setup(
                    commits,
                    trees.trees(),
                    buyers.get(Side.CANDIDATE).cluster().shape(),
                    rounds,
                    clients,
                    buys,
                    warmUp,
                    settledJit,
                    warmedUp);
            Report report = BuyCostReport.build(setup, batches, startedAt, Duration.between(startedAt, Instant.now()))
                    .withLoad(load)
                    .withNote("Old cluster: " + compilers.get(Side.BASELINE))
                    .withNote("New cluster: " + compilers.get(Side.CANDIDATE))
                    .measuring(
                            TwoTrees.commitPair(commits),
                            "Both clusters with full tiered JIT (`--jvm throughput`), warmed up with "
                                    + warmUp.toSeconds() + " s of buys each.");
            List<Path> written = ReportWriter.write(report, trees.output);
            out.println(report.headline());
            out.println("Report: " + written);
            return 0;
        }
    }

    /** Buys from the first batch's clients, in slices, until both clusters' compilers have settled. */
    private Map<Side, SettledWarmUp.WarmedUp> warmUp(Map<Side, Buyers> buyers, PrintStream out) {
        Map<Side, LaunchedCluster> clusters = new EnumMap<>(Side.class);
        buyers.forEach((side, sideBuyers) -> clusters.put(side, sideBuyers.cluster()));
        return SettledWarmUp.run(
                clients.getFirst() + " buyers",
                clusters,
                (side, slice) -> buyers.get(side).warmUpSlice(slice, clients.getFirst()),
                WARM_UP_SLICE,
                warmUp,
                settledJit,
                warmUpLimit,
                out);
    }

    private int maxClients() {
        return clients.stream().mapToInt(Integer::intValue).max().orElseThrow();
    }

    /** The demo customer's buys on one cluster, one copy each, the seven books in turn, spread over its frontends. */
    private static final class Buyers implements AutoCloseable {

        private final LaunchedCluster cluster;
        private final HttpDriver http;
        private final AccessTokens tokens;
        private final Bookstore bookstore;
        private final String catalog;
        private final List<String> frontends;

        Buyers(LaunchedCluster cluster, ClusterAccess access, int maxClients) {
            this.cluster = cluster;
            this.http = new HttpDriver(maxClients);
            this.tokens = access.tokens().prefetch();
            this.bookstore = new Bookstore(http, tokens);
            this.catalog = cluster.urls("catalog").getFirst();
            this.frontends = cluster.urls("frontend");
        }

        LaunchedCluster cluster() {
            return cluster;
        }

        /** Buys from {@code clients} buyers, spread over the frontends, for about {@code duration}; the failed ones. */
        long warmUpSlice(Duration duration, int clients) {
            long end = System.nanoTime() + duration.toNanos();
            long failures = 0;
            while (System.nanoTime() < end)
                failures += load(clients, clients * 50L).totalFailures();
            return failures;
        }

        Batch measure(int round, int clients, int buys) {
            Map<CpuTier, Long> before = cluster.cpuTicks();
            long compilersBefore = cluster.compilerTicks();
            LoadResult result = load(clients, buys);
            Map<CpuTier, Double> cpuMillis = cluster.cpuMillisSince(before);
            double compilerMillis = (cluster.compilerTicks() - compilersBefore) * ProcessFigures.NANOS_PER_TICK / 1e6;
            var latencies = result.summary("buy");
            List<String> examples = result.failureExamples().getOrDefault("buy", List.of());
            String firstFailure = examples.isEmpty() ? "" : examples.getFirst();
            return new Batch(
                    round,
                    cluster.side(),
                    clients,
                    latencies.count(),
                    result.totalFailures(),
                    firstFailure,
                    result.wallTime().toNanos() / 1e9,
                    latencies.p50Ms(),
                    latencies.p99Ms(),
                    cpuMillis,
                    compilerMillis);
        }

        /** {@code buys} buys (rounded down to a multiple of {@code clients}), restocked first so none is refused. */
        private LoadResult load(int clients, long buys) {
            long perClient = Math.max(1, buys / clients);
            Stock.ensure(bookstore, catalog, Bookstore.BOOK_IDS, perClient * clients);
            return ClosedLoad.run(clients, (int) perClient, (client, iteration, recorder) -> {
                long book = Bookstore.BOOK_IDS.get((client + iteration) % Bookstore.BOOK_IDS.size());
                String frontend = frontends.get(client % frontends.size());
                recorder.time("buy", () -> bookstore.buy(frontend, book, 1));
            });
        }

        @Override
        public void close() {
            tokens.close();
            http.close();
        }
    }
}
