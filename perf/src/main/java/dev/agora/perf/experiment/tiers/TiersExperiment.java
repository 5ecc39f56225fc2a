package dev.agora.perf.experiment.tiers;

import dev.agora.perf.experiment.ClusterShape;
import dev.agora.perf.experiment.Experiment;
import dev.agora.perf.experiment.ExperimentContext;
import dev.agora.perf.experiment.Floors;
import dev.agora.perf.experiment.KneeProbe;
import dev.agora.perf.experiment.Runs;
import dev.agora.perf.experiment.Seeds;
import dev.agora.perf.experiment.Stock;
import dev.agora.perf.experiment.Target;
import dev.agora.perf.experiment.Warmup;
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
import java.util.Random;

/**
 * Seed 000, table 1: 5, 8 and 10 clients of 100 requests each, half stock updates and half lookups, against
 * one tier (the catalog directly) and two tiers (through a frontend), one server each.
 */
public final class TiersExperiment implements Experiment {

    private static final List<Integer> CLIENTS = List.of(5, 8, 10);
    private static final Map<Integer, double[]> SEED_MS = Map.of(
            5, new double[] {0.41, 0.55},
            8, new double[] {0.40, 0.59},
            10, new double[] {0.41, 0.56});

    @Override
    public String name() {
        return "tiers";
    }

    @Override
    public String seed() {
        return "000";
    }

    @Override
    public String workload() {
        return "5, 8, 10 clients x 100 requests, 50% stock update / 50% lookup; catalog directly (1 tier) vs "
                + "through a frontend (2 tiers)";
    }

    @Override
    public String seedFigure() {
        return "0.41 ms vs 0.55 ms per request";
    }

    @Override
    public Report run(ExperimentContext context) {
        Instant started = Instant.now();
        Target target = context.cluster(ClusterShape.bookstore().withReplicas(1, 1, 1));
        String frontend = target.urls("frontend").getFirst();
        String catalog = target.urls("catalog").getFirst();
        int requests = context.count(100, 40);
        // The warm-up may end with the compilers still busy (it has a time limit); a measurement of about twenty
        // seconds taken meanwhile, floors included, would measure them.
        String compilers =
                Warmup.awaitIdleCompilers(Warmup.bookstoreInstances(target), Duration.ofSeconds(context.count(90, 5)));
        Report.Builder report = Report.builder(name(), "One tier vs two tiers")
                .seed(seed(), Seeds.HARDWARE_000)
                .quick(context.quick());
        Table.Builder table = Table.with(
                "clients",
                "seed 1 tier ms",
                "Agora 1 tier ms",
                "seed 2 tiers ms",
                "Agora 2 tiers ms",
                "2 tiers / 1 tier");
        List<Double> x = new ArrayList<>();
        List<Double> oneTier = new ArrayList<>();
        List<Double> twoTiers = new ArrayList<>();
        Map<String, Object> raw = new LinkedHashMap<>();
        Table.Builder floorTable = Table.with(
                "clients",
                "load generator alone ms",
                "Spring endpoint ms",
                "bare commit ms",
                "1-tier floor ms",
                "Agora 1 tier / floor",
                "2-tier floor ms",
                "Agora 2 tiers / floor");
        String floorAtFirst = "";
        try (HttpDriver http = context.http(16)) {
            Bookstore bookstore = new Bookstore(http, target.tokens());
            for (int clients : CLIENTS) {
                Stock.ensure(bookstore, catalog, Bookstore.BOOK_IDS, (long) clients * requests + 100);
                LoadResult direct = ClosedLoad.run(clients, requests, (client, i, recorder) -> {
                    long book = book(client, i);
                    if (i % 2 == 0) recorder.time("update", () -> bookstore.restock(catalog, book, 1));
                    else recorder.time("lookup", () -> bookstore.catalogLookup(catalog, book));
                });
                LoadResult throughFrontend = ClosedLoad.run(clients, requests, (client, i, recorder) -> {
                    long book = book(client, i);
                    if (i % 2 == 0) recorder.time("update", () -> bookstore.buy(frontend, book, 1));
                    else recorder.time("lookup", () -> bookstore.lookup(frontend, book));
                });
                double one = direct.all().meanMillis();
                double two = throughFrontend.all().meanMillis();
                context.log("  tiers " + clients + " clients: 1 tier " + Numbers.format(one) + " ms, 2 tiers "
                        + Numbers.format(two) + " ms");
                double[] seed = SEED_MS.get(clients);
                report.compare(Comparison.lowerIsBetter("1 tier, " + clients + " clients, mean", "ms", seed[0], one));
                report.compare(Comparison.lowerIsBetter("2 tiers, " + clients + " clients, mean", "ms", seed[1], two));
                table.row(
                        clients, seed[0], Numbers.format(one), seed[1], Numbers.format(two), Numbers.format(two / one));
                report.latency(
                        "1 tier, " + clients + " clients (all)",
                        direct.all().summarize(direct.wallTime()),
                        direct.totalFailures());
                Runs.addLatencies(report, "1 tier, " + clients + " clients", direct);
                report.latency(
                        "2 tiers, " + clients + " clients (all)",
                        throughFrontend.all().summarize(throughFrontend.wallTime()),
                        throughFrontend.totalFailures());
                Runs.addLatencies(report, "2 tiers, " + clients + " clients", throughFrontend);
                Floors.Figures floor = Floors.measure(http, catalog + "/livez", target.database(), clients, requests);
                double commit = floor.commit().orElse(0.0);
                // Half the requests read, half commit: one service and half a commit per 1-tier request; a 2-tier
                // lookup crosses two services, a buy three (frontend, order, catalog) and commits at least twice.
                double oneTierFloor = floor.springEndpoint() + commit / 2;
                double twoTierFloor = 2.5 * floor.springEndpoint() + commit;
                if (floorAtFirst.isEmpty()) {
                    floorAtFirst = "2 tiers " + Numbers.format(twoTierFloor) + " ms at " + clients + " clients"
                            + " (Spring endpoint " + Numbers.format(floor.springEndpoint()) + " ms, bare commit "
                            + floor.commit().map(Numbers::format).orElse("-") + " ms); Agora "
                            + Numbers.format(two / twoTierFloor) + "x it";
                }
                floorTable.row(
                        clients,
                        Numbers.format(floor.loadGenerator()),
                        Numbers.format(floor.springEndpoint()),
                        floor.commit().map(Numbers::format).orElse("-"),
                        Numbers.format(oneTierFloor),
                        Numbers.format(one / oneTierFloor),
                        Numbers.format(twoTierFloor),
                        Numbers.format(two / twoTierFloor));
                context.log("  floors " + clients + " clients: load generator " + Numbers.format(floor.loadGenerator())
                        + " ms, Spring endpoint " + Numbers.format(floor.springEndpoint()) + " ms, commit "
                        + floor.commit().map(Numbers::format).orElse("-") + " ms");
                x.add((double) clients);
                oneTier.add(one);
                twoTiers.add(two);
                raw.put(
                        clients + " clients",
                        Map.of("oneTier", Runs.raw(direct), "twoTiers", Runs.raw(throughFrontend)));
            }
            Stock.ensure(bookstore, catalog, Bookstore.BOOK_IDS, 20_000);
            KneeProbe knee = KneeProbe.run(
                    context,
                    "2 tiers: 50% lookup / 50% buy",
                    expected -> Stock.ensure(bookstore, catalog, Bookstore.BOOK_IDS, (long) expected + 100),
                    i -> i % 2 == 0 ? bookstore.buy(frontend, 1 + i % 7, 1) : bookstore.lookup(frontend, 1 + i % 7));
            KneeProbe.addTo(report, "tiers-open-model.png", List.of(knee));
        }
        Comparison headline =
                Comparison.lowerIsBetter("2-tier request mean, 5 clients", "ms", 0.55, twoTiers.getFirst());
        Comparison headlineOne =
                Comparison.lowerIsBetter("1-tier request mean, 5 clients", "ms", 0.41, oneTier.getFirst());
        return report.headline(headlineOne.headline() + "; " + headline.headline())
                .floor(floorAtFirst)
                .section(
                        "Per client count",
                        "Mean latency per request over all clients, as the seed reports it. Shape: "
                                + target.shape().describe() + ". One tier: `GET /books/{id}` and "
                                + "`POST /admin/books/{id}/restock` (the demo admin's token) straight to the "
                                + "catalog. Two tiers: `GET /api/books/{id}` and `POST /api/orders` (the demo "
                                + "customer's token) through the frontend; Agora's buy also passes the order "
                                + "service (frontend -> order -> catalog), so the update half of the 2-tier run "
                                + "crosses three tiers, not two. Lookups carry no token.",
                        table.build())
                .section(
                        "Floors in the same run",
                        "What the machine charges before Agora's own work, with the same clients and request counts"
                                + " (perf's Floors): the load generator against a trivial HTTP server in its own JVM;"
                                + " a Spring Boot endpoint that touches nothing (the catalog's `/livez`: Tomcat, Spring"
                                + " MVC, the service's filters and security); a bare durable commit (one-row insert,"
                                + " autocommit, the cluster's PostgreSQL, fsync on). The 1-tier floor is one Spring"
                                + " endpoint plus half a commit per request (half the requests restock); the 2-tier"
                                + " floor is 2.5 Spring endpoints plus one commit (a lookup crosses frontend and"
                                + " catalog, a buy frontend, order and catalog with at least two commits). A ratio"
                                + " near 1 means the seed's gap is this machine's, not Agora's.",
                        floorTable.build())
                .chart(Chart.line("tiers.png", "Mean latency per request", "concurrent clients", "ms")
                        .series("1 tier (catalog direct)", x, oneTier)
                        .series("2 tiers (through frontend)", x, twoTiers)
                        .build())
                .note("The frontend cache is on (the shipped configuration): lookups between buys of the same "
                        + "book are cache hits, each buy invalidates that book.")
                .note(compilers)
                .note("Requests per client: " + requests + "; books chosen at random from the seven titles.")
                .raw("perClientCount", raw)
                .timing(started, Duration.between(started, Instant.now()))
                .build();
    }

    private static long book(int client, int iteration) {
        return 1 + new Random(client * 100_003L + iteration).nextInt(7);
    }
}
