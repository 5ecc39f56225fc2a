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
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Seed 003, evaluation set 1: each client registers, then searches for, then downloads its own 1 KB files (10,000
 * of each), with 1, 2, 4, 6 and 8 clients at once. Registrations go through the frontend with an admin token and
 * are durable (fsync'd blob, PostgreSQL commit); searches ask the index by file name; downloads go through the
 * frontend each client registered through, which keeps small files it passed on in memory and answers them from there.
 * Beyond the seed, on a sample of each client's files ({@link #BESIDE_FILES}), each client then downloads them
 * through the other frontend and a second time through its own, and the same clients measure two floors: a cached
 * book lookup and the frontend's liveness probe.
 *
 * <p>{@code -Dregister-search-download.clients=1,8} and {@code -Dregister-search-download.files=10000} choose the
 * client counts and the files per client (default: the seed's, or the reduced ones with {@code --quick}).
 */
public final class RegisterSearchDownloadExperiment implements Experiment {

    /** The seed's time per client for 10,000 operations, ms: register, search, download. */
    private static final Map<Integer, double[]> SEED_MS = Map.of(
            1, new double[] {1280, 901, 5637},
            2, new double[] {1423, 999, 7036},
            4, new double[] {2478.25, 1121, 12401},
            6, new double[] {4618, 1201.83, 19236.67},
            8, new double[] {6034.63, 1319.13, 29458.75});

    /** The seed's operations, compared with its figures. */
    private static final List<String> OPERATIONS = List.of("register", "search", "download");
    /**
     * Measured beside them with the same clients: each file's first download through the other frontend (which has
     * not seen it, so it comes from a catalog), a second download through the client's own, and the two floors.
     */
    private static final List<String> BESIDE =
            List.of("download elsewhere", "download again", "lookup floor", "livez floor");
    /**
     * The files per client those measure at most: the seed's counts are for its own operations, and these need no
     * more than a few thousand requests per client for steady percentiles. At the seed's 10,000 they took about a
     * fifth of the whole run.
     */
    private static final int BESIDE_FILES = 2_000;

    private static final int SIZE = 1024;

    @Override
    public String name() {
        return "register-search-download";
    }

    @Override
    public String seed() {
        return "003";
    }

    @Override
    public String workload() {
        return "10 000 register, search, download of 1 KB files per client, 1..8 concurrent clients";
    }

    @Override
    public String seedFigure() {
        return "1 client: 7810 register/s, 11090 search/s, 1770 download/s";
    }

    @Override
    public Report run(ExperimentContext context) throws Exception {
        Instant started = Instant.now();
        Target target = context.cluster(ClusterShape.bookstore());
        List<String> frontends = target.urls("frontend");
        int perClient = ExperimentContext.chosen(name() + ".files", context.count(10_000, 300));
        List<Integer> clientCounts =
                ExperimentContext.chosen(name() + ".clients", context.choose(List.of(1, 2, 4, 6, 8), List.of(1, 8)));
        int besidePerClient = Math.min(perClient, BESIDE_FILES);
        String run = FileWorkloads.runId();
        Report.Builder report = Report.builder(name(), "Register, search and download book files")
                .seed(seed(), Seeds.HARDWARE_003)
                .quick(context.quick());
        Table.Builder table = Table.with(
                "clients",
                "seed register/s",
                "Agora register/s",
                "seed search/s",
                "Agora search/s",
                "seed download/s",
                "Agora download/s",
                "download elsewhere/s",
                "download again/s",
                "lookup floor/s",
                "livez floor/s",
                "search / lookup floor",
                "failures");
        Map<String, List<Double>> series = new LinkedHashMap<>();
        List<Double> x = new ArrayList<>();
        Map<String, Object> raw = new LinkedHashMap<>();
        FileWorkloads.admin(target); // fetched before anything is timed; renewed in the background after
        try (FileClient files = new FileClient(32)) {
            for (int clients : clientCounts) {
                String kind = "c" + clients;
                Map<String, LoadResult> byOperation = new LinkedHashMap<>();
                for (String operation : java.util.stream.Stream.concat(OPERATIONS.stream(), BESIDE.stream())
                        .toList()) {
                    LoadResult result = ClosedLoad.run(
                            clients,
                            OPERATIONS.contains(operation) ? perClient : besidePerClient,
                            (client, i, recorder) -> {
                                String frontend = frontends.get(client % frontends.size());
                                String file = FileWorkloads.name(run, kind, client, i);
                                switch (operation) {
                                    case "register" ->
                                        recorder.time(
                                                operation,
                                                () -> files.upload(
                                                        frontend,
                                                        FileWorkloads.BOOK,
                                                        file,
                                                        SIZE,
                                                        client * 1_000_000L + i,
                                                        FileWorkloads.admin(target)));
                                    case "search" -> recorder.time(operation, () -> files.search(frontend, file));
                                    case "lookup floor" ->
                                        recorder.time(
                                                operation,
                                                () -> files.get(frontend + "/api/books/" + FileWorkloads.BOOK));
                                    case "livez floor" ->
                                        recorder.time(operation, () -> files.get(frontend + "/livez"));
                                    case "download elsewhere" ->
                                        recorder.time(
                                                operation,
                                                () -> files.download(
                                                        frontends.get((client + 1) % frontends.size()),
                                                        FileWorkloads.BOOK,
                                                        file));
                                    default ->
                                        recorder.time(
                                                operation, () -> files.download(frontend, FileWorkloads.BOOK, file));
                                }
                            },
                            clients + " clients " + operation);
                    byOperation.put(operation, result);
                    Runs.addLatencies(report, clients + " clients", result);
                    raw.put(clients + " clients " + operation, Runs.raw(result));
                }
                x.add((double) clients);
                double[] seedMs = SEED_MS.get(clients);
                List<Object> row = new ArrayList<>(List.of(clients));
                long failures = 0;
                for (int op = 0; op < OPERATIONS.size(); op++) {
                    String operation = OPERATIONS.get(op);
                    LoadResult result = byOperation.get(operation);
                    // Per client, as the seed reports it: operations per second one client saw.
                    double ours = 1000 / result.all().meanMillis();
                    double theirs = 10_000 / seedMs[op] * 1000;
                    series.computeIfAbsent(operation, k -> new ArrayList<>()).add(ours);
                    row.add(Numbers.format(theirs));
                    row.add(Numbers.format(ours));
                    failures += result.totalFailures();
                    report.compare(Comparison.higherIsBetter(
                            clients + " clients, " + operation + " per second per client", "/s", theirs, ours));
                }
                for (String operation : BESIDE) {
                    LoadResult result = byOperation.get(operation);
                    double ours = 1000 / result.all().meanMillis();
                    series.computeIfAbsent(operation, k -> new ArrayList<>()).add(ours);
                    row.add(Numbers.format(ours));
                    failures += result.totalFailures();
                }
                double searchShare = byOperation.get("lookup floor").all().meanMillis()
                        / byOperation.get("search").all().meanMillis();
                row.add(Numbers.format(100 * searchShare) + "%");
                raw.put(clients + " clients search share of the lookup floor", searchShare);
                row.add(failures);
                table.row(row.toArray());
                context.log("  " + clients + " clients: " + row);
            }
        }
        double ceiling =
                FileWorkloads.fsyncCeiling(Path.of(System.getProperty("java.io.tmpdir")), context.count(2000, 200));
        Chart.Builder chart = Chart.line(
                "register-search-download.png", "Operations per second per client", "clients", "operations/s");
        series.forEach((operation, y) -> chart.series(operation, x, y));
        List<Double> lookupFloor = series.getOrDefault("lookup floor", List.of());
        if (!lookupFloor.isEmpty()) {
            report.floor("a cached lookup through the frontend " + Numbers.format(lookupFloor.getFirst())
                    + " /s per client at " + Numbers.format(x.getFirst()) + " clients");
        }
        return report.section(
                        "Per client count",
                        "Every client registers its own " + perClient + " files of 1 KB through the frontends "
                                + "(`PUT /api/books/1/files/{name}`, admin token), then searches each by name "
                                + "(`GET /api/files?q=`), then downloads each (`GET /api/books/1/files/{name}`). Rates "
                                + "are per client (1000 / mean ms), as the seed's are. A frontend keeps the small files "
                                + "uploaded or downloaded through it in memory (64 MB), so a "
                                + "download through the frontend that took the upload does not reach a catalog while "
                                + "the file is kept. Then, beyond the seed and on its first " + besidePerClient
                                + " files, each client downloads them through the other frontend (\"download "
                                + "elsewhere\": its first download of them there, passed through from a catalog "
                                + "node), then again through its own, and the same clients measure two floors with "
                                + "as many requests: a cached book lookup (`GET /api/books/1`: the frontend's whole "
                                + "request path, its cache, no catalog) and the frontend's liveness probe "
                                + "(`GET /livez`). "
                                + "\"search / lookup floor\" is the search rate as a share of the lookup floor's: "
                                + "how close a search through the catalog's index comes to a request that does "
                                + "nothing but pass through the frontend. Cluster: "
                                + target.shape().describe() + ", files on two catalogs each.",
                        table.build())
                .section(
                        "Durability ceiling",
                        "A registration here is durable: its blob is fsync'd and renamed with the folder fsync'd on "
                                + "each of the two catalogs holding it, then its row commits in PostgreSQL. The bare "
                                + "ceiling of the first part on this machine, one thread writing, fsync'ing and renaming "
                                + "1 KB files, measured in this run: " + Numbers.format(ceiling)
                                + " files/s. The seed's registrations went to an in-memory map.")
                .chart(chart.build())
                .raw("steps", raw)
                .raw("fsyncCeilingPerSecond", ceiling)
                .timing(started, Duration.between(started, Instant.now()))
                .build();
    }
}
