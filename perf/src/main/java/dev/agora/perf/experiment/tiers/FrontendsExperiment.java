package dev.agora.perf.experiment.tiers;

import dev.agora.perf.experiment.ClusterShape;
import dev.agora.perf.experiment.Experiment;
import dev.agora.perf.experiment.ExperimentContext;
import dev.agora.perf.experiment.Floors;
import dev.agora.perf.experiment.Runs;
import dev.agora.perf.experiment.Seeds;
import dev.agora.perf.experiment.Stock;
import dev.agora.perf.experiment.Target;
import dev.agora.perf.load.Bookstore;
import dev.agora.perf.load.ClosedLoad;
import dev.agora.perf.load.HttpDriver;
import dev.agora.perf.load.LoadResult;
import dev.agora.perf.report.Chart;
import dev.agora.perf.report.Report;
import dev.agora.perf.report.Table;
import dev.agora.perf.stats.Comparison;
import dev.agora.perf.stats.Numbers;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Seed 000, table 2: 10 (and 20) clients spread over 1, 2, 4, 8, 16 frontends, one database tier behind
 * them. One cluster with the most frontends runs; each step spreads the clients over the first n.
 */
public final class FrontendsExperiment implements Experiment {

    private static final Map<Integer, Double> SEED_10_CLIENTS_MS = Map.of(1, 0.55, 2, 0.53, 4, 0.52, 8, 0.52, 16, 0.53);

    private static final Duration IDLE_WINDOW = Duration.ofSeconds(15);

    @Override
    public String name() {
        return "frontends";
    }

    @Override
    public String seed() {
        return "000";
    }

    @Override
    public String workload() {
        return "10 (and 20) clients x 100 requests (50% lookup / 50% buy) spread over 1, 2, 4, 8, 16 frontends";
    }

    @Override
    public String seedFigure() {
        return "0.55 -> 0.52 ms; the database tier is the bottleneck";
    }

    @Override
    public Report run(ExperimentContext context) throws Exception {
        Instant started = Instant.now();
        List<Integer> counts = new java.util.ArrayList<>(context.choose(List.of(1, 2, 4, 8, 16), List.of(1, 2, 4)));
        Target target = null;
        List<String> fallbacks = new ArrayList<>();
        while (target == null) {
            int wanted = counts.getLast();
            try {
                target = context.cluster(ClusterShape.bookstore().withReplicas(wanted, 1, 1));
            } catch (RuntimeException e) {
                // Sixteen JVMs starting at once on two busy cores can miss the launcher's ready timeout: measure
                // what fits rather than nothing, and say so.
                if (counts.size() <= 3) throw e;
                context.log("  " + wanted + " frontends did not start (" + e.getMessage() + "); trying fewer");
                fallbacks.add(wanted + " frontends did not start in time on this machine (" + e.getMessage() + ")");
                counts.removeLast();
            }
        }
        int most = counts.getLast();
        List<String> frontends = target.urls("frontend");
        String catalog = target.urls("catalog").getFirst();
        int requests = context.count(100, 40);
        Report.Builder report = Report.builder(name(), "Scaling out frontends")
                .seed(seed(), Seeds.HARDWARE_000)
                .quick(context.quick());
        Table.Builder table = Table.with(
                "frontends",
                "seed 10 clients ms",
                "Agora 10 clients ms",
                "Agora 20 clients ms",
                "Agora 10 clients p99 ms",
                "Agora 10 clients req/s");
        Map<Integer, List<Double>> series = new LinkedHashMap<>();
        List<Double> x = new ArrayList<>();
        Map<String, Object> raw = new LinkedHashMap<>();
        Map<Integer, Double> throughput10 = new LinkedHashMap<>();
        List<IdleCost> idle;
        try (HttpDriver http = context.http(32)) {
            Bookstore bookstore = new Bookstore(http, target.tokens());
            for (int n : counts) {
                List<String> used = frontends.subList(0, n);
                Map<Integer, LoadResult> byClients = new LinkedHashMap<>();
                for (int clients : List.of(10, 20)) {
                    Stock.ensure(bookstore, catalog, Bookstore.BOOK_IDS, (long) clients * requests + 100);
                    LoadResult result = ClosedLoad.run(clients, requests, (client, i, recorder) -> {
                        String frontend = used.get(client % used.size());
                        long book = 1 + (client + i) % 7;
                        if (i % 2 == 0) recorder.time("update", () -> bookstore.buy(frontend, book, 1));
                        else recorder.time("lookup", () -> bookstore.lookup(frontend, book));
                    });
                    byClients.put(clients, result);
                    series.computeIfAbsent(clients, c -> new ArrayList<>())
                            .add(result.all().meanMillis());
                    report.latency(
                            n + " frontends, " + clients + " clients",
                            result.all().summarize(result.wallTime()),
                            result.totalFailures());
                    raw.put(n + " frontends, " + clients + " clients", Runs.raw(result));
                }
                x.add((double) n);
                double ten = byClients.get(10).all().meanMillis();
                LoadResult tenClients = byClients.get(10);
                throughput10.put(
                        n, tenClients.all().count() / (tenClients.wallTime().toNanos() / 1e9));
                context.log("  " + n + " frontends: 10 clients " + Numbers.format(ten) + " ms, 20 clients "
                        + Numbers.format(byClients.get(20).all().meanMillis()) + " ms");
                report.compare(Comparison.lowerIsBetter(
                        n + " frontends, 10 clients, mean", "ms", SEED_10_CLIENTS_MS.get(n), ten));
                table.row(
                        n,
                        SEED_10_CLIENTS_MS.get(n),
                        Numbers.format(ten),
                        Numbers.format(byClients.get(20).all().meanMillis()),
                        Numbers.format(byClients.get(10).all().percentileMillis(99)),
                        Numbers.format(throughput10.get(n)));
            }
            report.floor(Floors.measureBeside(http, target, 10, requests));
            // After the load, every frontend is warm: what each costs while nobody calls it.
            idle = IdleCost.measure(target, http, "frontend", IDLE_WINDOW);
        }
        Chart.Builder chart = Chart.line("frontends.png", "Mean latency per request vs frontends", "frontends", "ms");
        series.forEach((clients, y) -> chart.series(clients + " clients", x, y));
        List<Double> ten = series.get(10);
        String trend = "10 clients: " + Numbers.format(ten.getFirst()) + " ms with 1 frontend -> "
                + Numbers.format(ten.getLast()) + " ms with " + most + " (seed 0.55 -> "
                + SEED_10_CLIENTS_MS.get(most) + " ms)";
        fallbacks.forEach(report::note);
        double latencyRatio = ten.getLast() / ten.getFirst();
        double throughputRatio = throughput10.get(most) / throughput10.get(counts.getFirst());
        Table.Builder scaling = Table.with("measure", "1 frontend", most + " frontends", "ratio", "goal (issue 32)");
        scaling.row(
                "mean latency, 10 clients, ms",
                Numbers.format(ten.getFirst()),
                Numbers.format(ten.getLast()),
                Numbers.format(latencyRatio),
                "<= 1.3");
        scaling.row(
                "throughput, 10 clients, req/s",
                Numbers.format(throughput10.get(counts.getFirst())),
                Numbers.format(throughput10.get(most)),
                Numbers.format(throughputRatio),
                ">= 0.9");
        Table.Builder idleTable = Table.with("per frontend, idle", "mean", "max", "all " + idle.size());
        idleRow(idleTable, "resident memory, MiB", idle, IdleCost::residentMiB);
        idleRow(idleTable, "heap in use, MiB", idle, IdleCost::heapUsedMiB);
        idleRow(idleTable, "threads", idle, IdleCost::threads);
        idleRow(idleTable, "open sockets", idle, IdleCost::sockets);
        idleRow(idleTable, "CPU while idle, % of one core", idle, IdleCost::cpuPercent);
        raw.put("idle", idle);
        return report.headline(Comparison.lowerIsBetter("1 frontend, 10 clients, mean", "ms", 0.55, ten.getFirst())
                                .headline()
                        + "; " + trend)
                .section(
                        "Per frontend count",
                        "Clients are assigned round-robin to the first n frontends of a cluster of " + most
                                + " frontends, 1 catalog and 1 order service ("
                                + target.shape().describe()
                                + "). Every request half is a lookup (`GET /api/books/{id}`) and half a buy "
                                + "(`POST /api/orders`, the stock update). The seed has no figures for 20 clients.",
                        table.build())
                .section(
                        "Scaling out",
                        "The same run's 10-client step with one frontend against the step with all of them.",
                        scaling.build())
                .section(
                        "What an idle frontend costs",
                        "Measured after the load, over " + IDLE_WINDOW.toSeconds() + " s in which nothing calls "
                                + "the frontends: resident memory and threads from /proc, heap in use from each "
                                + "frontend's metrics (not after a GC), sockets open (listening, pooled connections to "
                                + "the catalog and order service, PostgreSQL, the invalidation channel), and the CPU "
                                + "each uses meanwhile (health probes of the replicas, lease renewals, clock checks).",
                        idleTable.build())
                .chart(chart.build())
                .note("All frontends run during every step, and the catalog pushes each invalidation to all "
                        + most + " of them, so a step with fewer frontends still pays for the idle ones' "
                        + "invalidations; on 2 cores the idle JVMs also take some CPU.")
                .note("Load generator and all services share the same 2 cores, as the seed's clients and servers "
                        + "shared its machine.")
                .raw("steps", raw)
                .raw("notStarted", fallbacks)
                .raw("scaling", Map.of("latencyRatio", latencyRatio, "throughputRatio", throughputRatio))
                .timing(started, Duration.between(started, Instant.now()))
                .build();
    }

    private static void idleRow(
            Table.Builder table, String figure, List<IdleCost> idle, java.util.function.ToDoubleFunction<IdleCost> of) {
        table.row(
                figure,
                Numbers.format(IdleCost.mean(idle, of)),
                Numbers.format(IdleCost.max(idle, of)),
                Numbers.format(IdleCost.total(idle, of)));
    }
}
