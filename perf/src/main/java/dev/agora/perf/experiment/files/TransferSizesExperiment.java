package dev.agora.perf.experiment.files;

import dev.agora.perf.experiment.ClusterShape;
import dev.agora.perf.experiment.Experiment;
import dev.agora.perf.experiment.ExperimentContext;
import dev.agora.perf.experiment.Runs;
import dev.agora.perf.experiment.Seeds;
import dev.agora.perf.experiment.Target;
import dev.agora.perf.load.ClosedLoad;
import dev.agora.perf.load.FileClient;
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
 * Seed 003, evaluation set 2: 8 clients download files of 1 KB to 1 GB, as many of each size as the seed did per
 * client; throughput per client in MB/s, beside the seed's. During the largest size the heap in use of every
 * process is sampled: streaming keeps it where it was.
 */
public final class TransferSizesExperiment implements Experiment {

    private static final int CLIENTS = 8;
    private static final long KB = 1000;

    /** The seed's sizes (decimal, as its byte totals are), files per client, and throughput per client in KB/s. */
    private record Step(String label, long size, int files, double seedKbPerSecond) {}

    private static final List<Step> SEED = List.of(
            new Step("1 KB", KB, 12_000, 210.25),
            new Step("10 KB", 10 * KB, 10_000, 1401.50),
            new Step("100 KB", 100 * KB, 1_500, 6520.67),
            new Step("1 MB", KB * KB, 500, 9151.41),
            new Step("10 MB", 10 * KB * KB, 100, 10059.84),
            new Step("100 MB", 100 * KB * KB, 10, 11613.61),
            new Step("1 GB", KB * KB * KB, 1, 12098.39));

    private static final List<Step> QUICK = List.of(
            new Step("1 KB", KB, 300, 210.25),
            new Step("100 KB", 100 * KB, 100, 6520.67),
            new Step("10 MB", 10 * KB * KB, 4, 10059.84),
            new Step("100 MB", 100 * KB * KB, 1, 11613.61));

    @Override
    public String name() {
        return "transfer-sizes";
    }

    @Override
    public String seed() {
        return "003";
    }

    @Override
    public String workload() {
        return "8 clients downloading content of 1 KB .. 1 GB";
    }

    @Override
    public String seedFigure() {
        return "0.2 MB/s (1 KB) .. 12 MB/s (1 GB)";
    }

    @Override
    public Report run(ExperimentContext context) throws Exception {
        Instant started = Instant.now();
        Target target = context.cluster(ClusterShape.bookstore());
        List<String> frontends = target.urls("frontend");
        String run = FileWorkloads.runId();
        List<Step> steps = context.choose(SEED, QUICK);
        Report.Builder report = Report.builder(name(), "Download throughput by file size")
                .seed(seed(), Seeds.HARDWARE_003)
                .quick(context.quick());
        Table.Builder table = Table.with(
                "size",
                "files per client",
                "seed MB/s per client",
                "Agora MB/s per client",
                "Agora MB/s all 8 clients",
                "failures");
        List<String> labels = new ArrayList<>();
        List<Double> ours = new ArrayList<>();
        List<Double> theirs = new ArrayList<>();
        Map<String, Object> raw = new LinkedHashMap<>();
        Map<String, double[]> heap = Map.of();
        Step largest = steps.getLast();
        try (FileClient files = new FileClient(CLIENTS * 2);
                HttpDriver http = context.http(8)) {
            for (Step step : steps) {
                String file = run + "-size-" + step.size() + ".bin";
                var uploaded = files.upload(
                        frontends.getFirst(),
                        FileWorkloads.BOOK,
                        file,
                        step.size(),
                        step.size(),
                        FileWorkloads.admin(target));
                if (!uploaded.isSuccess()) {
                    throw new IllegalStateException("Could not register the " + step.label() + " file: "
                            + uploaded.status() + " " + uploaded.body());
                }
                LoadResult[] result = new LoadResult[1];
                Runnable downloads = () -> result[0] = ClosedLoad.run(
                        CLIENTS,
                        step.files(),
                        (client, i, recorder) -> recorder.time(
                                "download " + step.label(),
                                () -> files.download(
                                        frontends.get(client % frontends.size()), FileWorkloads.BOOK, file)),
                        step.label() + " downloads");
                if (step == largest) heap = FileWorkloads.heapDuring(target, http, downloads);
                else downloads.run();
                LoadResult load = result[0];
                double seconds = load.wallTime().toNanos() / 1e9;
                double perClient = step.files() * (double) step.size() / seconds / 1e6;
                double all = perClient * CLIENTS;
                double seedMb = step.seedKbPerSecond() / 1000;
                labels.add(step.label());
                ours.add(perClient);
                theirs.add(seedMb);
                table.row(
                        step.label(),
                        step.files(),
                        Numbers.format(seedMb),
                        Numbers.format(perClient),
                        Numbers.format(all),
                        load.totalFailures());
                report.compare(Comparison.higherIsBetter(step.label() + " MB/s per client", "MB/s", seedMb, perClient));
                Runs.addLatencies(report, "", load);
                raw.put(step.label(), Runs.raw(load));
                context.log("  " + step.label() + ": " + Numbers.format(perClient) + " MB/s per client");
            }
        }
        Table.Builder heapTable = Table.with("process", "heap used at start MB", "largest heap used MB");
        heap.forEach((process, firstAndMax) ->
                heapTable.row(process, Numbers.format(firstAndMax[0]), Numbers.format(firstAndMax[1])));
        Chart.Builder chart = Chart.bar("transfer-sizes.png", "Download throughput per client", "file size", "MB/s")
                .bars("seed", labels, theirs)
                .bars("Agora", labels, ours)
                .logY();
        return report.section(
                        "Per file size",
                        "One file of each size is registered, then " + CLIENTS + " clients download it as many times "
                                + "as the seed's clients did, through both frontends. Per client: the bytes one client "
                                + "received over the step's wall time, the seed's measure. Cluster: "
                                + target.shape().describe() + "; large blobs go out with sendfile from the catalogs "
                                + "and are passed through the frontends one 256 KB buffer at a time; files of up to "
                                + "64 KB are answered from a frontend's memory after its first download of them "
                                + "(the frontend's small files), as every download of a small book file is.",
                        table.build())
                .section(
                        "Heap during the " + largest.label() + " downloads",
                        "Heap in use of every process, sampled every 250 ms while the " + largest.label()
                                + " step ran (actuator's jvm.memory.used, area heap; the load generator's own "
                                + "Runtime). A garbage collector lets used heap grow with any allocation, so the "
                                + "figure to read is that it stays far below the bytes transferred ("
                                + Numbers.format(CLIENTS * (double) largest.files() * largest.size() / 1e6) + " MB).",
                        heapTable.build())
                .chart(chart.build())
                .raw("steps", raw)
                .raw("heapMb", heap)
                .timing(started, Duration.between(started, Instant.now()))
                .build();
    }
}
