package dev.agora.perf.experiment;

import java.util.List;
import java.util.Optional;

/** Every row of EXPERIMENTS.md, in the order {@code run all} runs them (grouped so clusters are reused). */
public final class Experiments {

    private static final String CONTENT = "needs book content downloads, which Agora does not have";

    private Experiments() {}

    public static List<Experiment> all() {
        return List.of(
                new TiersExperiment(),
                new FrontendsExperiment(),
                new ExchangeScalabilityExperiment(),
                new ExchangeThroughputExperiment(),
                new ExchangeHistoryExperiment(),
                new BookstoreSequentialExperiment(),
                new CacheExperiment(),
                new BookstoreConcurrentExperiment(),
                new TierBreakdownExperiment(),
                new FailoverExperiment(),
                new NotApplicableExperiment(
                        "register-search-download",
                        "003",
                        "10 000 register, search, download per client, 1..8 concurrent clients",
                        "1 client: 7810 register/s, 11090 search/s, 1770 download/s",
                        CONTENT),
                new NotApplicableExperiment(
                        "transfer-sizes",
                        "003",
                        "8 clients downloading content of 1 KB .. 1 GB",
                        "0.2 MB/s (1 KB) .. 12 MB/s (1 GB)",
                        CONTENT),
                new NotApplicableExperiment(
                        "centralized-vs-distributed",
                        "003",
                        "1..8 clients transferring 10 000 1 KB files against 1 replica vs N replicas",
                        "8 clients: 377 s vs 29 s",
                        CONTENT));
    }

    public static Optional<Experiment> named(String name) {
        return all().stream().filter(e -> e.name().equals(name)).findFirst();
    }
}
