package dev.agora.perf.experiment;

import dev.agora.launcher.cluster.ControlClient;
import dev.agora.launcher.cluster.ControlToken;
import dev.agora.launcher.credentials.AccessTokens;
import dev.agora.launcher.credentials.Credentials;
import dev.agora.perf.report.Commits;
import dev.agora.perf.report.MachineLoad;
import dev.agora.perf.report.Report;
import dev.agora.perf.report.ReportWriter;
import dev.agora.perf.stats.Numbers;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        description = "Runs seed experiments by name, or all, and writes perf/reports/<name>.md, .json and charts.")
public final class RunCommand implements Callable<Integer> {

    @Parameters(arity = "1..*", paramLabel = "EXPERIMENT", description = "Experiment names (see `list`), or `all`.")
    List<String> names = new ArrayList<>();

    @Option(
            names = "--quick",
            description = "Reduced request counts (a smoke run, minutes instead of the seeds' counts).")
    boolean quick;

    @Option(
            names = "--output",
            defaultValue = "perf/reports",
            description = "Where reports go (default: ${DEFAULT-VALUE}).")
    Path output;

    @Option(
            names = "--throughput-jvm",
            description = "Run the services with full tiered compilation and G1 instead of the launcher's fast-start "
                    + "options (C1 only, Serial GC): better peak speed, slower and costlier start-ups.")
    boolean throughputJvm;

    @Option(
            names = "--aot",
            description = "Start services from JDK 25 AOT caches, trained once per build and kept in the data "
                    + "directory: far cheaper start-ups once trained, but training costs one start per service.")
    boolean aot;

    @Option(
            names = "--data-dir",
            description = "Where clusters keep state (database wiped per cluster; extracted jars and AOT caches "
                    + "kept); default: $TMPDIR/agora-perf-clusters/<fast-start|throughput>. One run at a time per "
                    + "folder.")
    Path dataDirectory;

    @Option(
            names = "--reuse-cluster",
            description = "Run against the cluster already started by the launcher (its control endpoint on 8390 +"
                    + " --port-offset, with the control token beside --credentials) instead of starting clusters of"
                    + " each experiment's shape.")
    boolean reuseCluster;

    @Option(
            names = "--port-offset",
            defaultValue = "0",
            description = "Port offset of the reused cluster (default: ${DEFAULT-VALUE}).")
    int portOffset;

    @Option(
            names = "--target-url",
            split = ",",
            description = "Frontend base URLs to load instead of the cluster's own (implies --reuse-cluster).")
    List<String> targetUrls = new ArrayList<>();

    @Option(
            names = "--credentials",
            defaultValue = "data/" + Credentials.FILE_NAME,
            description = "With --reuse-cluster or --target-url: the demo credentials the reused cluster's launcher"
                    + " wrote to <data-dir>/" + Credentials.FILE_NAME + " (buys and restocks need their tokens)"
                    + " (default: ${DEFAULT-VALUE}).")
    Path credentials;

    @Override
    public Integer call() throws Exception {
        // The embedded PostgreSQL narrates every start and stop at INFO; the run's own log says what matters.
        System.setProperty("org.slf4j.simpleLogger.log.io.zonky", "warn");
        List<Experiment> selected = select();
        PrintStream console = System.out;
        Files.createDirectories(output);
        Path dataRoot = dataDirectory != null
                ? dataDirectory
                : Path.of(
                        System.getProperty("java.io.tmpdir"),
                        "agora-perf-clusters",
                        throughputJvm ? "throughput" : "fast-start");
        Target reused = reuseCluster || !targetUrls.isEmpty() ? reusedTarget() : null;
        List<Report> reports = new ArrayList<>();
        // The clusters run this tree's jars (perf is started from the checkout's root, as its README says).
        String commit = Commits.of(Path.of("").toAbsolutePath());
        Instant started = Instant.now();
        try (ClusterPool clusters = new ClusterPool(
                throughputJvm, aot, dataRoot, reused, console::println, target -> Warmup.bookstore(target, quick))) {
            ExperimentContext context = new ExperimentContext(quick, output, clusters, console);
            for (Experiment experiment : selected) {
                context.log("experiment " + experiment.name() + " (seed " + experiment.seed() + "): "
                        + experiment.workload());
                Instant began = Instant.now();
                MachineLoad.Reading before = MachineLoad.Reading.now();
                Report report;
                try {
                    report = experiment.run(context);
                    for (String warmUp : clusters.takeWarmUpNotes()) report = report.withNote(warmUp);
                } catch (Exception | AssertionError e) {
                    context.log("experiment " + experiment.name() + " failed: " + e);
                    e.printStackTrace(console);
                    report = failed(experiment, e, began);
                    clusters.discard();
                }
                MachineLoad load = MachineLoad.between(before, MachineLoad.Reading.now());
                report = report.withLoad(load)
                        .measuring(
                                commit,
                                conditions(reused != null, clusters.takeAotUsed()) + " Workload: "
                                        + experiment.workload() + ".");
                context.log("  machine: load average " + Numbers.format(load.loadAverageStart()) + " -> "
                        + Numbers.format(load.loadAverageEnd()) + ", busy "
                        + Numbers.format(load.cpu().busyPercent())
                        + "%, steal " + Numbers.format(load.cpu().stealPercent()) + "%");
                ReportWriter.write(report, output);
                reports.add(report);
                context.log(experiment.name() + ": " + report.headline());
            }
        }
        Duration total = Duration.between(started, Instant.now());
        console.println();
        console.println("Reports in " + output.toAbsolutePath() + " (" + total.toSeconds() + " s):");
        for (Report report : reports) console.println("  " + report.name() + ": " + report.headline());
        return reports.stream().anyMatch(r -> r.status() == Report.Status.FAILED) ? 1 : 0;
    }

    /** How the measured system ran, for every report of this run. */
    private String conditions(boolean reused, boolean aotUsed) {
        if (reused)
            return "Against a cluster started elsewhere (`--reuse-cluster`/`--target-url`): its own JVM options.";
        return (throughputJvm
                        ? "Services with full tiered JIT and G1 (`--throughput-jvm`)"
                        : "Services with the launcher's fast-start JVM options (C1 only, Serial GC)")
                + (aotUsed ? ", from JDK AOT caches" : ", no AOT cache")
                + "; warm-up as the notes say.";
    }

    /**
     * The cluster started elsewhere, with its demo tokens fetched before anything is measured when it has frontends
     * to ask: a wrong or missing file fails the run at once, and no measured request waits for a token request
     * (about 100 ms of BCrypt on the frontend).
     */
    private ReusedTarget reusedTarget() {
        AccessTokens tokens = new AccessTokens(Credentials.read(credentials));
        ReusedTarget target = new ReusedTarget(reuseCluster ? reusedControl() : null, targetUrls, tokens);
        if (target.urls("frontend").isEmpty()) return target;
        try {
            tokens.prefetch();
            return target;
        } catch (RuntimeException e) {
            tokens.close();
            throw new IllegalStateException(
                    "No tokens with the demo credentials " + credentials.toAbsolutePath()
                            + " (the reused cluster's <data-dir>/" + Credentials.FILE_NAME + "? see --credentials): "
                            + e.getMessage(),
                    e);
        }
    }

    /** The reused cluster's control endpoint, with the token its launcher wrote beside the demo credentials. */
    private ControlClient reusedControl() {
        Path directory = credentials.toAbsolutePath().getParent();
        if (ControlToken.read(directory).isEmpty()) {
            throw new IllegalStateException("No control token " + directory.resolve(ControlToken.FILE_NAME)
                    + " beside the demo credentials (--credentials <data-dir>/" + Credentials.FILE_NAME
                    + " of the running cluster)");
        }
        return ControlClient.of(directory, portOffset);
    }

    private List<Experiment> select() {
        try {
            return Experiments.selected(names);
        } catch (IllegalArgumentException unknown) {
            throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this), unknown.getMessage());
        }
    }

    private Report failed(Experiment experiment, Throwable error, Instant began) {
        return Report.builder(experiment.name(), "Failed: " + experiment.name())
                .seed(experiment.seed(), "see the seed report")
                .status(Report.Status.FAILED)
                .quick(quick)
                .headline("Failed: " + error)
                .section(
                        "What happened",
                        "The experiment stopped with `" + error + "`. The console output of `run` "
                                + "has the stack trace; the cluster's logs were in its temporary data directory.")
                .timing(began, Duration.between(began, Instant.now()))
                .build();
    }
}
