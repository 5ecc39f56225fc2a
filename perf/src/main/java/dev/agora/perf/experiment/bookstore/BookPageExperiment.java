package dev.agora.perf.experiment.bookstore;

import static dev.agora.perf.stats.Numbers.format;

import dev.agora.perf.experiment.ClusterShape;
import dev.agora.perf.experiment.Experiment;
import dev.agora.perf.experiment.ExperimentContext;
import dev.agora.perf.experiment.Runs;
import dev.agora.perf.experiment.Target;
import dev.agora.perf.load.ClosedLoad;
import dev.agora.perf.load.HttpDriver;
import dev.agora.perf.load.LoadResult;
import dev.agora.perf.report.Report;
import dev.agora.perf.stats.Comparison;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Issue #33: a book's web page ({@code GET /books/{id}}, HTML rendered by Thymeleaf: the cached lookup, the book's
 * cached list of files, the template) against the JSON lookup of the same books ({@code GET /api/books/{id}}),
 * one client, interleaved in the same run on the same frontend, anonymous as a reader arrives. The goal: the page's
 * p50 within 2x of the lookup's.
 */
public final class BookPageExperiment implements Experiment {

    private static final double GOAL_RATIO = 2.0;

    @Override
    public String name() {
        return "book-page";
    }

    @Override
    public String seed() {
        // Not a row of EXPERIMENTS.md: the lookup it compares against is seed 002's.
        return "002";
    }

    @Override
    public String workload() {
        return "1 client: GET /books/{id} (HTML page) and GET /api/books/{id} (JSON), interleaved, books 1-7";
    }

    @Override
    public String seedFigure() {
        return "no seed figure; goal (#33): book page p50 within 2x of the JSON lookup's p50";
    }

    @Override
    public Report run(ExperimentContext context) {
        Instant started = Instant.now();
        int rounds = context.count(5000, 200);
        int warmUp = context.count(5000, 100);
        Report.Builder report =
                Report.builder(name(), "Book page vs JSON lookup").quick(context.quick());
        Target target = context.cluster(ClusterShape.bookstore());
        String frontend = target.urls("frontend").getFirst();
        LoadResult result;
        try (HttpDriver http = context.http(4)) {
            ClosedLoad.Workload workload = (client, i, recorder) -> {
                long book = 1 + i % 7;
                recorder.time("page", () -> http.get(frontend + "/books/" + book));
                recorder.time("lookup", () -> http.get(frontend + "/api/books/" + book));
            };
            ClosedLoad.run(1, warmUp, workload);
            result = ClosedLoad.run(1, rounds, workload, "book page vs lookup");
        }
        Runs.addLatencies(report, "interleaved", result);
        double page = result.latency("page").percentileMillis(50);
        double lookup = result.latency("lookup").percentileMillis(50);
        double ratio = page / lookup;
        context.log("  page p50 " + format(page) + " ms, lookup p50 " + format(lookup) + " ms, ratio " + format(ratio)
                + " (" + Runs.fail(result) + ")");
        report.compare(Comparison.lowerIsBetter("page p50 / lookup p50", "x", GOAL_RATIO, ratio));
        report.headline("book page p50 " + format(page) + " ms, JSON lookup p50 " + format(lookup) + " ms: "
                + format(ratio) + "x (goal: at most " + format(GOAL_RATIO) + "x)");
        return report.note("The page also lists the book's files, cached beside the book in the frontend like the "
                        + "lookup (both read in process); the comparison column holds the goal, not "
                        + "a seed figure.")
                .raw("ratio", List.of(page, lookup, ratio))
                .timing(started, Duration.between(started, Instant.now()))
                .build();
    }
}
