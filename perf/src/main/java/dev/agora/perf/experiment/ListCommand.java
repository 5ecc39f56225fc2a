package dev.agora.perf.experiment;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "list", mixinStandardHelpOptions = true, description = "Lists the seed experiments.")
public final class ListCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        System.out.printf("%-28s %-9s %s%n", "experiment", "seed", "workload / seed's figure");
        for (Experiment experiment : java.util.stream.Stream.concat(
                        Experiments.all().stream(), Experiments.byNameOnly().stream())
                .toList()) {
            boolean runnable = !(experiment instanceof NotApplicableExperiment);
            System.out.printf(
                    "%-28s %-9s %s%n%-38s seed: %s%s%n",
                    experiment.name(),
                    experiment.seed(),
                    experiment.workload(),
                    "",
                    experiment.seedFigure(),
                    runnable ? "" : "  [not run: needs book content downloads]");
        }
        return 0;
    }
}
