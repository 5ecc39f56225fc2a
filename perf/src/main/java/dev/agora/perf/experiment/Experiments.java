package dev.agora.perf.experiment;

import dev.agora.perf.experiment.bookstore.BookPageExperiment;
import dev.agora.perf.experiment.bookstore.BookstoreConcurrentExperiment;
import dev.agora.perf.experiment.bookstore.BookstoreSequentialExperiment;
import dev.agora.perf.experiment.bookstore.CacheExperiment;
import dev.agora.perf.experiment.bookstore.FailoverExperiment;
import dev.agora.perf.experiment.bookstore.TierBreakdownExperiment;
import dev.agora.perf.experiment.exchange.ExchangeFailoverExperiment;
import dev.agora.perf.experiment.exchange.ExchangeHistoryExperiment;
import dev.agora.perf.experiment.exchange.ExchangeScalabilityExperiment;
import dev.agora.perf.experiment.exchange.ExchangeThroughputExperiment;
import dev.agora.perf.experiment.files.CentralizedVsDistributedExperiment;
import dev.agora.perf.experiment.files.RegisterSearchDownloadExperiment;
import dev.agora.perf.experiment.files.TransferSizesExperiment;
import dev.agora.perf.experiment.partitions.PartitionsExperiment;
import dev.agora.perf.experiment.tiers.FrontendsExperiment;
import dev.agora.perf.experiment.tiers.TiersExperiment;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    /**
     * Experiments run only when named, never by {@code run all}: {@code partitions} (issue 52) starts a cluster of its
     * own with every link through Toxiproxy, and its quick run alone takes minutes.
     */
    public static List<Experiment> byNameOnly() {
        return List.of(new PartitionsExperiment());
    }

    /**
     * The experiments the names give, in their order, each once; {@code all} stands for {@link #all()}, so {@code all
     * partitions} is a whole sitting.
     *
     * @throws IllegalArgumentException for a name no experiment has
     */
    public static List<Experiment> selected(List<String> names) {
        Map<String, Experiment> selected = new LinkedHashMap<>();
        for (String name : names) {
            if (name.equals("all")) {
                all().forEach(experiment -> selected.putIfAbsent(experiment.name(), experiment));
                continue;
            }
            Experiment experiment = named(name)
                    .orElseThrow(() -> new IllegalArgumentException("Unknown experiment " + name + " (see `list`)"));
            selected.putIfAbsent(experiment.name(), experiment);
        }
        return List.copyOf(selected.values());
    }

    public static Optional<Experiment> named(String name) {
        return java.util.stream.Stream.concat(all().stream(), byNameOnly().stream())
                .filter(e -> e.name().equals(name))
                .findFirst();
    }
}
