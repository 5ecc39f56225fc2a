package dev.agora.perf.experiment.bookstore;

import static dev.agora.perf.stats.Numbers.format;

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
import dev.agora.perf.load.HttpReply;
import dev.agora.perf.load.LoadResult;
import dev.agora.perf.report.Chart;
import dev.agora.perf.report.Report;
import dev.agora.perf.report.Table;
import dev.agora.perf.stats.Comparison;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Seed 002, section 2.3: 1 to 100 concurrent clients each doing search + lookup + buy, with and without the
 * cache. Seed 004: 2 to 40 clients each buying the same book 100 times.
 */
public final class BookstoreConcurrentExperiment implements Experiment {

    /** Seed 002 E2E seconds for 10, 20, ... 100 clients: S1 with caching, S2 without. */
    private static final Map<Integer, double[]> SEED_002 = Map.of(
            10, new double[] {0.50, 0.50},
            20, new double[] {0.74, 0.93},
            30, new double[] {1.06, 1.86},
            40, new double[] {1.67, 2.57},
            50, new double[] {2.03, 2.88},
            60, new double[] {2.64, 4.53},
            70, new double[] {4.73, 5.24},
            80, new double[] {4.23, 5.89},
            90, new double[] {6.38, 7.62},
            100, new double[] {7.14, 8.54});

    /** Seed 004: average seconds per buy for 2, 5, 10, 20, 40 clients buying the same book. */
    private static final Map<Integer, Double> SEED_004 =
            Map.of(2, 0.03687, 5, 0.08694, 10, 0.15386, 20, 0.26983, 40, 0.43128);

    @Override
    public String name() {
        return "bookstore-concurrent";
    }

    @Override
    public String seed() {
        return "002, 004";
    }

    @Override
    public String workload() {
        return "1..100 clients of search + lookup + buy, with and without cache (002); 2..40 clients buying the same "
                + "book, 100 buys each (004)";
    }

    @Override
    public String seedFigure() {
        return "100 clients: 7.14 s E2E with cache; 40 clients: 0.43 s per buy";
    }

    @Override
    public Report run(ExperimentContext context) {
        Instant started = Instant.now();
        List<Integer> clientCounts =
                context.choose(List.of(1, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100), List.of(1, 10, 50, 100));
        int rounds = context.count(5, 2);
        List<Integer> buyers = context.choose(List.of(2, 5, 10, 20, 40), List.of(2, 10, 40));
        int buysEach = context.count(100, 20);
        Report.Builder report = Report.builder(name(), "Concurrent clients")
                .seed(seed(), Seeds.HARDWARE_002_004)
                .quick(context.quick());
        Map<String, Map<Integer, LoadResult>> sessions = new LinkedHashMap<>();
        Map<Integer, LoadResult> sameBook = new LinkedHashMap<>();
        for (boolean cache : List.of(true, false)) {
            ClusterShape shape =
                    cache ? ClusterShape.bookstore() : ClusterShape.bookstore().withoutCache();
            Target target = context.cluster(shape);
            List<String> frontends = target.urls("frontend");
            String catalog = target.urls("catalog").getFirst();
            String label = cache ? "with cache" : "without cache";
            Map<Integer, LoadResult> byClients = new LinkedHashMap<>();
            try (HttpDriver http = context.http(128)) {
                Bookstore bookstore = new Bookstore(http, target.tokens());
                for (int clients : clientCounts) {
                    Stock.ensure(bookstore, catalog, Bookstore.BOOK_IDS, (long) clients * rounds + 100);
                    LoadResult result = ClosedLoad.run(clients, rounds, (client, i, recorder) -> {
                        String frontend = frontends.get(client % frontends.size());
                        long book = 1 + new Random(client * 7919L + i).nextInt(7);
                        String topic = book <= 2 ? "distributed systems" : "graduate school";
                        long start = System.nanoTime();
                        HttpReply search = recorder.time("search", () -> bookstore.search(frontend, topic));
                        HttpReply lookup = recorder.time("lookup", () -> bookstore.lookup(frontend, book));
                        HttpReply buy = recorder.time("buy", () -> bookstore.buy(frontend, book, 1), 201, 201);
                        boolean ok = search.isSuccess() && lookup.isSuccess() && buy.status() == 201;
                        recorder.record("session", start, System.nanoTime() - start, ok ? 200 : 500, ok);
                    });
                    byClients.put(clients, result);
                    report.latency(
                            clients + " clients " + label + " session",
                            result.summary("session"),
                            result.failures("session"));
                    context.log("  " + clients + " clients " + label + ": session mean "
                            + format(result.latency("session").meanMillis()) + " ms (" + Runs.fail(result) + ")");
                }
                if (cache) {
                    report.floor(Floors.measureBeside(http, target, 10, context.count(100, 40)));
                    for (int clients : buyers) {
                        Stock.ensure(bookstore, catalog, 1L, (long) clients * buysEach + 100);
                        LoadResult result = ClosedLoad.run(
                                clients,
                                buysEach,
                                (client, i, recorder) -> recorder.time(
                                        "buy",
                                        () -> bookstore.buy(frontends.get(client % frontends.size()), 1, 1),
                                        201,
                                        201),
                                clients + " buyers");
                        sameBook.put(clients, result);
                        report.latency(
                                clients + " clients buying book 1", result.summary("buy"), result.failures("buy"));
                        context.log("  " + clients + " buyers of one book: mean "
                                + format(result.latency("buy").meanMillis()) + " ms (" + Runs.fail(result) + ")");
                    }
                }
            }
            sessions.put(label, byClients);
        }
        Table.Builder table002 = Table.with(
                "clients",
                "seed S1 (cache) s",
                "Agora with cache s",
                "seed S2 (no cache) s",
                "Agora without cache s",
                "Agora with cache p99 s",
                "Agora without cache p99 s");
        for (int clients : clientCounts) {
            LoadResult with = sessions.get("with cache").get(clients);
            LoadResult without = sessions.get("without cache").get(clients);
            double[] seed = SEED_002.get(clients);
            table002.row(
                    clients,
                    seed == null ? "" : format(seed[0]),
                    format(with.latency("session").meanMillis() / 1000),
                    seed == null ? "" : format(seed[1]),
                    format(without.latency("session").meanMillis() / 1000),
                    format(with.latency("session").percentileMillis(99) / 1000),
                    format(without.latency("session").percentileMillis(99) / 1000));
            if (seed != null) {
                report.compare(Comparison.lowerIsBetter(
                        clients + " clients, E2E with cache",
                        "s",
                        seed[0],
                        with.latency("session").meanMillis() / 1000));
                report.compare(Comparison.lowerIsBetter(
                        clients + " clients, E2E without cache",
                        "s",
                        seed[1],
                        without.latency("session").meanMillis() / 1000));
            }
        }
        Table.Builder table004 =
                Table.with("clients", "seed s per buy", "Agora s per buy", "Agora p99 s", "buys/s", "failures");
        for (Map.Entry<Integer, LoadResult> entry : sameBook.entrySet()) {
            LoadResult result = entry.getValue();
            double mean = result.latency("buy").meanMillis() / 1000;
            table004.row(
                    entry.getKey(),
                    format(SEED_004.get(entry.getKey())),
                    format(mean),
                    format(result.latency("buy").percentileMillis(99) / 1000),
                    format(result.summary("buy").throughputPerSecond()),
                    result.failures("buy"));
            report.compare(Comparison.lowerIsBetter(
                    entry.getKey() + " clients buying one book, per buy", "s", SEED_004.get(entry.getKey()), mean));
        }
        int most = clientCounts.getLast();
        int mostBuyers = buyers.getLast();
        Comparison e2e = Comparison.lowerIsBetter(
                most + " clients E2E (cache)",
                "s",
                SEED_002.get(most)[0],
                sessions.get("with cache").get(most).latency("session").meanMillis() / 1000);
        Comparison perBuy = Comparison.lowerIsBetter(
                mostBuyers + " clients per buy",
                "s",
                SEED_004.get(mostBuyers),
                sameBook.get(mostBuyers).latency("buy").meanMillis() / 1000);
        report.headline(e2e.headline() + "; " + perBuy.headline());
        report.section(
                "Seed 002: concurrent search + lookup + buy",
                "Each client runs " + rounds + " sessions of search (the book's topic), lookup and buy of a random "
                        + "book, clients spread over both frontends; E2E is one session's time as its client sees it, "
                        + "averaged over all sessions. Seed S1 is with caching, S2 without; the seed measured 1 to 100 "
                        + "clients and tabulated 10 to 100.",
                table002.build());
        report.section(
                "Seed 004: clients buying the same book",
                "Each client buys one copy of book 1, " + buysEach + " times in a row; all clients contend for the "
                        + "same catalog row (no oversell: every buy is a conditional update in PostgreSQL).",
                table004.build());
        Chart.Builder chart =
                Chart.line("bookstore-concurrent.png", "E2E per session vs clients", "clients", "seconds");
        sessions.forEach((label, byClients) -> {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            byClients.forEach((clients, result) -> {
                x.add((double) clients);
                y.add(result.latency("session").meanMillis() / 1000);
            });
            chart.series("Agora " + label, x, y);
        });
        List<Double> seedX = new ArrayList<>();
        List<Double> seedS1 = new ArrayList<>();
        List<Double> seedS2 = new ArrayList<>();
        for (int clients = 10; clients <= 100; clients += 10) {
            seedX.add((double) clients);
            seedS1.add(SEED_002.get(clients)[0]);
            seedS2.add(SEED_002.get(clients)[1]);
        }
        chart.series("seed S1 (cache)", seedX, seedS1)
                .series("seed S2 (no cache)", seedX, seedS2)
                .logY();
        report.chart(chart.build());
        List<Double> bx = new ArrayList<>();
        List<Double> by = new ArrayList<>();
        List<Double> bs = new ArrayList<>();
        sameBook.forEach((clients, result) -> {
            bx.add((double) clients);
            by.add(result.latency("buy").meanMillis() / 1000);
            bs.add(SEED_004.get(clients));
        });
        report.chart(
                Chart.line("bookstore-concurrent-same-book.png", "Seconds per buy, same book", "clients", "seconds")
                        .series("Agora", bx, by)
                        .series("seed 004", bx, bs)
                        .logY()
                        .build());
        Map<String, Object> raw = new LinkedHashMap<>();
        sessions.forEach((label, byClients) -> byClients.forEach(
                (clients, result) -> raw.put("002 " + clients + " clients " + label, Runs.raw(result))));
        sameBook.forEach((clients, result) -> raw.put("004 " + clients + " buyers", Runs.raw(result)));
        return report.raw("runs", raw)
                .timing(started, Duration.between(started, Instant.now()))
                .build();
    }
}
