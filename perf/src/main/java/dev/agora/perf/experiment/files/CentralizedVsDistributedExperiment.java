package dev.agora.perf.experiment.files;

import dev.agora.perf.experiment.ClusterShape;
import dev.agora.perf.experiment.Experiment;
import dev.agora.perf.experiment.ExperimentContext;
import dev.agora.perf.experiment.Runs;
import dev.agora.perf.experiment.Seeds;
import dev.agora.perf.experiment.Target;
import dev.agora.perf.load.ClosedLoad;
import dev.agora.perf.load.FileClient;
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
 * Seed 003, evaluation set 3: clients each download 10,000 1 KB files, from a central layout (one catalog node holds
 * and serves every file) and from the distributed one (files spread over all catalog nodes by consistent hashing,
 * two copies each). Both clusters have the same processes; only {@code AGORA_FILES_LAYOUT} differs. Their frontends
 * keep no small file in memory (their caches off, {@code AGORA_CACHE_ENABLED=false}), so every download is served by
 * the layout.
 *
 * <p>{@code -Dcentralized-vs-distributed.clients=1,8} and {@code -Dcentralized-vs-distributed.files=10000} choose the
 * client counts and the files (default: the seed's, or the reduced ones with {@code --quick}).
 */
public final class CentralizedVsDistributedExperiment implements Experiment {

    private static final int CATALOGS = 3;
    /** The seed's time per client for 10,000 files, ms: distributed, centralized. */
    private static final Map<Integer, double[]> SEED_MS = Map.of(
            1, new double[] {5637, 22560},
            2, new double[] {7036, 31604.7},
            4, new double[] {12401, 50697},
            6, new double[] {19236.66, 110285},
            8, new double[] {29458, 377545});

    @Override
    public String name() {
        return "centralized-vs-distributed";
    }

    @Override
    public String seed() {
        return "003";
    }

    @Override
    public String workload() {
        return "1..8 clients transferring 10 000 1 KB files each, against 1 node (central) vs N nodes (distributed)";
    }

    @Override
    public String seedFigure() {
        return "8 clients: 377 s vs 29 s";
    }

    @Override
    public Report run(ExperimentContext context) throws Exception {
        Instant started = Instant.now();
        int files = ExperimentContext.chosen(name() + ".files", context.count(10_000, 300));
        List<Integer> clientCounts =
                ExperimentContext.chosen(name() + ".clients", context.choose(List.of(1, 2, 4, 6, 8), List.of(1, 8)));
        Report.Builder report = Report.builder(name(), "Central against distributed book files")
                .seed(seed(), Seeds.HARDWARE_003)
                .quick(context.quick());
        Map<String, Map<Integer, Double>> perClientMs = new LinkedHashMap<>();
        Map<String, Object> raw = new LinkedHashMap<>();
        String described = "";
        for (String layout : List.of("central", "distributed")) {
            // The frontends keep no file in memory (their caches off): every download must reach the layout measured.
            ClusterShape shape = ClusterShape.bookstore()
                    .withReplicas(2, CATALOGS, 1)
                    .with("catalog", "AGORA_FILES_LAYOUT", layout)
                    .with("frontend", "AGORA_CACHE_ENABLED", "false");
            Target target = context.cluster(shape);
            described = target.shape().describe();
            List<String> frontends = target.urls("frontend");
            String run = FileWorkloads.runId();
            context.log("  " + layout + ": registering " + files + " files");
            try (FileClient client = new FileClient(32)) {
                LoadResult registered =
                        FileWorkloads.register(client, target, files, 1024, i -> FileWorkloads.name(run, layout, 0, i));
                if (registered.totalFailures() > 0) {
                    throw new IllegalStateException(layout + ": " + registered.totalFailures()
                            + " registrations failed: " + registered.failureExamples());
                }
                for (int clients : clientCounts) {
                    LoadResult result = ClosedLoad.run(
                            clients,
                            files,
                            (c, i, recorder) -> recorder.time(
                                    "download",
                                    () -> client.download(
                                            frontends.get(c % frontends.size()),
                                            FileWorkloads.BOOK,
                                            FileWorkloads.name(run, layout, 0, (i + c * files / clients) % files))),
                            layout + " " + clients + " clients");
                    double ms = result.all().meanMillis() * files;
                    perClientMs
                            .computeIfAbsent(layout, k -> new LinkedHashMap<>())
                            .put(clients, ms);
                    Runs.addLatencies(report, layout + ", " + clients + " clients", result);
                    raw.put(layout + " " + clients + " clients", Runs.raw(result));
                    context.log("  " + layout + ", " + clients + " clients: " + Numbers.format(ms / 1000)
                            + " s per client");
                }
            }
        }
        Table.Builder table = Table.with(
                "clients",
                "seed distributed s",
                "Agora distributed s",
                "seed central s",
                "Agora central s",
                "Agora central / distributed");
        List<Double> x = new ArrayList<>();
        List<Double> central = new ArrayList<>();
        List<Double> distributed = new ArrayList<>();
        for (int clients : clientCounts) {
            double d = perClientMs.get("distributed").get(clients);
            double c = perClientMs.get("central").get(clients);
            double scale = 10_000.0 / files;
            x.add((double) clients);
            central.add(c / 1000);
            distributed.add(d / 1000);
            table.row(
                    clients,
                    Numbers.format(SEED_MS.get(clients)[0] / 1000),
                    Numbers.format(d / 1000),
                    Numbers.format(SEED_MS.get(clients)[1] / 1000),
                    Numbers.format(c / 1000),
                    Numbers.format(c / d));
            report.compare(Comparison.lowerIsBetter(
                    clients + " clients, distributed, s per client per 10,000 files",
                    "s",
                    SEED_MS.get(clients)[0] / 1000,
                    d * scale / 1000));
            report.compare(Comparison.lowerIsBetter(
                    clients + " clients, central, s per client per 10,000 files",
                    "s",
                    SEED_MS.get(clients)[1] / 1000,
                    c * scale / 1000));
        }
        Chart.Builder chart = Chart.line(
                        "centralized-vs-distributed.png", "Time per client for its files", "clients", "seconds")
                .series("central", x, central)
                .series("distributed", x, distributed);
        int most = clientCounts.getLast();
        double ratio = perClientMs.get("central").get(most)
                / perClientMs.get("distributed").get(most);
        return report.headline(most + " clients: central takes " + Numbers.format(ratio)
                        + "x the distributed layout's time (seed: 12.8x)")
                .section(
                        "Per client count",
                        "Each layout gets its own cluster (" + described + "): central sets AGORA_FILES_LAYOUT=central "
                                + "(the first catalog holds and serves every file; the others answer with a redirect "
                                + "to it, which the frontends follow), distributed spreads the files over all "
                                + CATALOGS + " catalogs by consistent hashing of their SHA-256, two copies each. "
                                + "The frontends keep no file in memory in either (their caches off, "
                                + "AGORA_CACHE_ENABLED=false): "
                                + "every download reaches the layout measured. "
                                + files + " files of 1 KB are registered, then each client downloads all of them, "
                                + "starting at a different file. Time per client = mean download latency x " + files
                                + ".",
                        table.build())
                .chart(chart.build())
                .raw("steps", raw)
                .timing(started, Duration.between(started, Instant.now()))
                .build();
    }
}
