package dev.agora.perf.experiment;

import dev.agora.perf.report.Report;

/** One row of EXPERIMENTS.md: replays a seed's workload on Agora and reports ours beside the seed's figure. */
public interface Experiment {

    /** The name used on the command line and for the report's files, e.g. "tiers". */
    String name();

    /** Which seed report(s) the workload comes from, e.g. "000" or "002, 004". */
    String seed();

    /** One line: what runs. */
    String workload();

    /** One line: what the seed measured. */
    String seedFigure();

    Report run(ExperimentContext context) throws Exception;
}
