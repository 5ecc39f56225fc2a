package dev.agora.perf.experiment.bookstore;

import static dev.agora.perf.stats.Numbers.format;

import dev.agora.perf.experiment.ClusterShape;
import dev.agora.perf.experiment.Experiment;
import dev.agora.perf.experiment.ExperimentContext;
import dev.agora.perf.experiment.Floors;
import dev.agora.perf.experiment.Runs;
import dev.agora.perf.experiment.Seeds;
import dev.agora.perf.experiment.ServerMetrics;
import dev.agora.perf.experiment.Stock;
import dev.agora.perf.experiment.Target;
import dev.agora.perf.load.Bookstore;
import dev.agora.perf.load.ClosedLoad;
import dev.agora.perf.load.HttpDriver;
import dev.agora.perf.load.HttpReply;
import dev.agora.perf.load.LoadResult;
import dev.agora.perf.report.Chart;
import dev.agora.perf.report.Report;
import dev.agora.perf.report.Table;
import dev.agora.perf.stats.Comparison;
import dev.agora.perf.stats.LatencyHistogram;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Seed 004, per-tier times: where a buy, a lookup and a search spend their time. The frontend's
 * {@code Server-Timing} header names the time spent waiting for each tier; the rest of the client's time
 * is the client-frontend hop plus the frontend's own work. Runs without the cache, like lab 2.
 */
public final class TierBreakdownExperiment implements Experiment {

    private static final double SEED_FRONTEND_ORDER_BUY = 10.29;
    private static final double SEED_FRONTEND_CATALOG_LOOKUP = 8.14;
    private static final double SEED_FRONTEND_CATALOG_SEARCH = 7.14;
    private static final double SEED_ORDER_CATALOG_UPDATE = 17.15;
    private static final double SEED_CLIENT_FRONTEND_LOOKUP = 6.78;
    private static final double SEED_CLIENT_FRONTEND_SEARCH = 5.37;
    private static final double SEED_CLIENT_FRONTEND_BUY = 6.11;

    @Override
    public String name() {
        return "tier-breakdown";
    }

    @Override
    public String seed() {
        return "004";
    }

    @Override
    public String workload() {
        return "per-hop time of buy, lookup, search (frontend->catalog, frontend->order, order->catalog)";
    }

    @Override
    public String seedFigure() {
        return "order->catalog update 17 ms, frontend->catalog query 8 ms";
    }

    /** Server-Timing durations per request kind and metric name, in ms. */
    private final Map<String, LatencyHistogram> tierTimes = new ConcurrentHashMap<>();

    @Override
    public Report run(ExperimentContext context) {
        Instant started = Instant.now();
        tierTimes.clear();
        int requests = context.count(1000, 100);
        Target target = context.cluster(ClusterShape.bookstore().withoutCache());
        String frontend = target.urls("frontend").getFirst();
        String catalog = target.urls("catalog").getFirst();
        String order = target.urls("order").getFirst();
        Report.Builder report = Report.builder(name(), "Time per tier")
                .seed(seed(), Seeds.HARDWARE_004)
                .quick(context.quick());
        LoadResult result;
        List<ServerSide> serverSide = serverSideTimers(target);
        Map<ServerSide, ServerMetrics> before = new LinkedHashMap<>();
        Map<ServerSide, ServerMetrics> after = new LinkedHashMap<>();
        try (HttpDriver http = context.http(4)) {
            Bookstore bookstore = new Bookstore(http, target.tokens());
            Stock.ensure(bookstore, catalog, 1L, 2L * requests + 100);
            serverSide.forEach(timer -> before.put(timer, timer.read(http)));
            result = ClosedLoad.run(1, requests, (client, i, recorder) -> {
                collect("buy", recorder.time("buy", () -> bookstore.buy(frontend, 1, 1), 201, 201));
                collect("lookup", recorder.time("lookup", () -> bookstore.lookup(frontend, 1)));
                collect("search", recorder.time("search", () -> bookstore.search(frontend, "distributed systems")));
                recorder.time("catalog lookup (direct)", () -> bookstore.catalogLookup(catalog, 1));
                recorder.time("catalog search (direct)", () -> bookstore.catalogSearch(catalog, "distributed systems"));
                collect(
                        "order direct",
                        recorder.time(
                                "order buy (direct)",
                                () -> bookstore.orderDirect(order, 1, 1, "tier-breakdown-" + started + "-" + i),
                                201,
                                201));
            });
            serverSide.forEach(timer -> after.put(timer, timer.read(http)));
            report.floor(Floors.measureBeside(http, target, 1, requests));
        }
        Table.Builder perBuy = Table.with("where", "calls", "mean ms per call", "what the server timed");
        for (ServerSide timer : serverSide) {
            ServerMetrics start = before.get(timer);
            ServerMetrics end = after.get(timer);
            perBuy.row(timer.where(), end.countSince(start), format(end.meanMillisSince(start)), timer.what());
        }
        report.section(
                "Inside a buy, timed by the servers",
                "Means over the buys of this run (through the frontend and direct), from each tier's own timers on"
                        + " /actuator/prometheus, read before and after; all replicas of a tier summed. Each line"
                        + " contains the ones below it; what a line adds over the next is that hop's network and"
                        + " framework time.",
                perBuy.build());
        Runs.addLatencies(report, "", result);
        double buy = result.latency("buy").meanMillis();
        double lookup = result.latency("lookup").meanMillis();
        double search = result.latency("search").meanMillis();
        Optional<Double> frontendOrder = tier("buy", "order");
        Optional<Double> frontendCatalogLookup = tier("lookup", "catalog");
        Optional<Double> frontendCatalogSearch = tier("search", "catalog");
        Optional<Double> orderCatalog = orderToCatalog();
        Table.Builder table = Table.with("hop", "seed ms", "Agora ms", "how measured");
        add(
                report,
                table,
                "frontend -> order (buy)",
                SEED_FRONTEND_ORDER_BUY,
                frontendOrder,
                "Server-Timing `order` on buys");
        add(
                report,
                table,
                "frontend -> catalog (lookup)",
                SEED_FRONTEND_CATALOG_LOOKUP,
                frontendCatalogLookup,
                "Server-Timing `catalog` on lookups");
        add(
                report,
                table,
                "frontend -> catalog (search)",
                SEED_FRONTEND_CATALOG_SEARCH,
                frontendCatalogSearch,
                "Server-Timing `catalog` on searches");
        add(
                report,
                table,
                "order -> catalog (update)",
                SEED_ORDER_CATALOG_UPDATE,
                orderCatalog,
                orderCatalog.isPresent() ? "Server-Timing of the order service's catalog call" : "not exposed");
        add(
                report,
                table,
                "client -> frontend (lookup)",
                SEED_CLIENT_FRONTEND_LOOKUP,
                frontendCatalogLookup.map(tier -> lookup - tier),
                "E2E lookup minus Server-Timing `catalog`");
        add(
                report,
                table,
                "client -> frontend (search)",
                SEED_CLIENT_FRONTEND_SEARCH,
                frontendCatalogSearch.map(tier -> search - tier),
                "E2E search minus Server-Timing `catalog`");
        add(
                report,
                table,
                "client -> frontend (buy)",
                SEED_CLIENT_FRONTEND_BUY,
                frontendOrder.map(tier -> buy - tier),
                "E2E buy minus Server-Timing `order`");
        Table.Builder seen = Table.with("request", "Server-Timing metric", "count", "mean ms", "p99 ms");
        new TreeMap<>(tierTimes).forEach((key, histogram) -> {
            String[] parts = key.split("\\|", 2);
            seen.row(
                    parts[0],
                    parts[1],
                    histogram.count(),
                    format(histogram.meanMillis()),
                    format(histogram.percentileMillis(99)));
        });
        report.headline(frontendCatalogLookup
                        .map(ms -> Comparison.lowerIsBetter(
                                        "frontend->catalog query", "ms", SEED_FRONTEND_CATALOG_LOOKUP, ms)
                                .headline())
                        .orElse("frontend->catalog query: no Server-Timing from the frontend")
                + "; "
                + orderCatalog
                        .map(ms -> Comparison.lowerIsBetter(
                                        "order->catalog update", "ms", SEED_ORDER_CATALOG_UPDATE, ms)
                                .headline())
                        .orElse(Comparison.lowerIsBetter("buy E2E", "ms", 35.6, buy)
                                .headline()));
        report.section(
                "Per hop",
                requests + " sequential rounds of buy (item 1), lookup (item 1) and search (distributed systems) "
                        + "through frontend 1, plus the same calls straight to a catalog and an order service. "
                        + "Shape: " + target.shape().describe() + ".",
                table.build());
        report.section(
                "Server-Timing metrics seen",
                "Every metric the frontend and the order service reported; `order.x` is the order service's own "
                        + "entry `x` as the frontend passed it on (`order.total`: the order service's whole request, "
                        + "`order.db`: its statements, `order.catalog`: its call to the catalog, "
                        + "`order.catalog.db`: the catalog's statements).",
                seen.build());
        List<String> hops = new ArrayList<>();
        List<Double> ours = new ArrayList<>();
        List<Double> seeds = new ArrayList<>();
        for (List<String> row : table.build().rows()) {
            if (row.get(2).equals("n/a")) continue;
            hops.add(row.get(0));
            seeds.add(Double.parseDouble(row.get(1)));
            ours.add(Double.parseDouble(row.get(2)));
        }
        report.chart(Chart.bar("tier-breakdown.png", "Time per hop", "hop", "ms")
                .bars("seed 004", hops, seeds)
                .bars("Agora", hops, ours)
                .build());
        Map<String, Object> raw = new LinkedHashMap<>(Runs.raw(result));
        Map<String, Object> timings = new LinkedHashMap<>();
        tierTimes.forEach((key, histogram) -> timings.put(key, histogram.summarize(result.wallTime())));
        raw.put("serverTiming", timings);
        return report.raw("run", raw)
                .note("Server-Timing durations are measured inside the frontend around its call to the tier, so they "
                        + "include that hop's network time and the tier's own work (and, for `order`, the order "
                        + "service's call to the catalog).")
                .timing(started, Duration.between(started, Instant.now()))
                .build();
    }

    /** A timer of one tier that a buy passes through, outermost first. */
    private record ServerSide(String where, String what, List<String> instances, String metric, String[] labels) {

        ServerMetrics read(HttpDriver http) {
            return instances.isEmpty() ? ServerMetrics.NONE : ServerMetrics.read(http, instances, metric, labels);
        }
    }

    private static List<ServerSide> serverSideTimers(Target target) {
        List<String> frontends = target.urls("frontend");
        List<String> orders = target.urls("order");
        List<String> catalogs = target.urls("catalog");
        return List.of(
                new ServerSide(
                        "frontend: POST /api/orders",
                        "whole request in the frontend",
                        frontends,
                        "http_server_requests_seconds",
                        new String[] {"method=\"POST\"", "uri=\"/api/orders\""}),
                new ServerSide(
                        "order service: POST /orders",
                        "whole request in the order service",
                        orders,
                        "http_server_requests_seconds",
                        new String[] {"method=\"POST\"", "uri=\"/orders\""}),
                new ServerSide(
                        "order service -> catalog",
                        "its client call to the catalog (incl. network)",
                        orders,
                        "http_client_requests_seconds",
                        new String[] {"uri=\"/internal/reservations\""}),
                new ServerSide(
                        "order service: database",
                        "connection held per statement (PENDING insert, outcome update)",
                        orders,
                        "hikaricp_connections_usage_seconds",
                        new String[] {}),
                new ServerSide(
                        "catalog: POST /internal/reservations",
                        "whole reservation in the catalog",
                        catalogs,
                        "http_server_requests_seconds",
                        new String[] {"method=\"POST\"", "uri=\"/internal/reservations\""}),
                new ServerSide(
                        "catalog: invalidation push",
                        "announcement (a reservation's: just before its commit) to the last frontend's acknowledgement",
                        catalogs,
                        "agora_invalidation_push_seconds",
                        new String[] {}));
    }

    private void collect(String request, HttpReply reply) {
        reply.serverTiming().recordDurations(tierTimes, request + "|");
    }

    private Optional<Double> tier(String request, String metric) {
        LatencyHistogram histogram = tierTimes.get(request + "|" + metric);
        return histogram == null || histogram.count() == 0 ? Optional.empty() : Optional.of(histogram.meanMillis());
    }

    /**
     * The order service's catalog call: {@code order.catalog} in a buy's Server-Timing (the order service's own
     * entries, passed on by the frontend) or {@code catalog} in the order service's answer to a direct buy.
     */
    private Optional<Double> orderToCatalog() {
        return tier("buy", "order.catalog").or(() -> tier("order direct", "catalog"));
    }

    private static void add(
            Report.Builder report, Table.Builder table, String hop, double seed, Optional<Double> ours, String how) {
        table.row(
                hop,
                format(seed),
                ours.map(dev.agora.perf.stats.Numbers::format).orElse("n/a"),
                how);
        ours.ifPresent(ms -> report.compare(Comparison.lowerIsBetter(hop, "ms", seed, ms)));
    }
}
