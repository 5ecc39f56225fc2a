package dev.agora.perf.experiment;

import java.util.List;
import java.util.Optional;

/** Every row of EXPERIMENTS.md, in the order {@code run all} runs them (grouped so clusters are reused). */
public final class Experiments {

    private Experiments() {}

    public static List<Experiment> all() {
        return List.of(
                new TiersExperiment(),
                new FrontendsExperiment(),
                new ExchangeScalabilityExperiment(),
                new ExchangeThroughputExperiment(),
                new ExchangeHistoryExperiment(),
                new ExchangeFailoverExperiment(),
                new BookstoreSequentialExperiment(),
                new CacheExperiment(),
                new BookstoreConcurrentExperiment(),
                new TierBreakdownExperiment(),
                new FailoverExperiment(),
                new RegisterSearchDownloadExperiment(),
                new TransferSizesExperiment(),
                new CentralizedVsDistributedExperiment(),
                new BookPageExperiment());
    }

    public static Optional<Experiment> named(String name) {
        return all().stream().filter(e -> e.name().equals(name)).findFirst();
    }
}
