package dev.agora.perf.experiment;

import dev.agora.perf.report.Report;
import java.time.Duration;
import java.time.Instant;

/**
 * A seed experiment whose workload needs a feature Agora does not have (seed 003 downloads book content).
 * It is listed and reported, plainly as not run, rather than faked with a different workload.
 */
record NotApplicableExperiment(String name, String seed, String workload, String seedFigure, String missing)
        implements Experiment {

    @Override
    public Report run(ExperimentContext context) {
        Instant now = Instant.now();
        return Report.builder(name, "Not run: " + name)
                .seed(seed, Seeds.HARDWARE_003)
                .status(Report.Status.NOT_APPLICABLE)
                .quick(context.quick())
                .headline("Not run: " + missing + ". Seed " + seed + " measured: " + seedFigure + ".")
                .section(
                        "Why this experiment is not run",
                        "The seed's workload: " + workload + ". It measures " + missing.replace("needs ", "")
                                + "; Agora's bookstore has titles, prices and stock but no book content to register "
                                + "or download, so there is nothing equivalent to measure. Replaying it with another "
                                + "operation would produce a number that compares with nothing. The report stays so "
                                + "that `run all` covers every row of EXPERIMENTS.md and the gap is visible.")
                .timing(now, Duration.ZERO)
                .build();
    }
}
