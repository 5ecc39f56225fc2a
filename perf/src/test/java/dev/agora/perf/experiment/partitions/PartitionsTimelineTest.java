package dev.agora.perf.experiment.partitions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.perf.report.Chart;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PartitionsTimelineTest {

    private static final long START = 1_000_000_000_000L;
    private static final long SECOND = 1_000_000_000L;

    @Test
    void theChartCountsEachClientsAnsweredAttemptsAndEveryFailureAndBandsTheSecondsOfAFault() {
        List<Calls.Call> calls = List.of(
                call("buy", 0.2, true),
                call("buy", 0.7, true),
                call("buy", 2.5, false),
                call("xml", 1.1, true),
                call("xml", 2.4, false),
                call("rest", 3.9, true));
        List<Nemesis.Applied> faults = List.of(new Nemesis.Applied(
                "partition", "order-1 -> postgres", START + 2 * SECOND, START + 3 * SECOND, Map.of()));
        PartitionsRun.Result result = new PartitionsRun.Result(
                START,
                faults,
                new Checks.Bookstore(2, 0, 0, 0, 0, List.of()),
                new Checks.Exchange(2, 0, 0, true, true, 1, 1, 1, List.of()),
                calls);

        Chart chart = PartitionsExperiment.timeline(result);

        assertThat(chart.kind()).isEqualTo(Chart.Kind.TIMELINE);
        assertThat(series(chart, "buys answered").y()).containsExactly(2.0, 0.0, 0.0, 0.0);
        assertThat(series(chart, "XML orders answered").y()).containsExactly(0.0, 1.0, 0.0, 0.0);
        assertThat(series(chart, "REST orders answered").y()).containsExactly(0.0, 0.0, 0.0, 1.0);
        assertThat(series(chart, "failed, all clients").y()).containsExactly(0.0, 0.0, 2.0, 0.0);
        assertThat(series(chart, "a fault applied").y()).containsExactly(0.0, 0.0, 2.1, 0.0);
        assertThat(series(chart, "a fault applied").x()).containsExactly(0.0, 1.0, 2.0, 3.0);
    }

    private static Calls.Call call(String kind, double endedSeconds, boolean answered) {
        long ended = START + (long) (endedSeconds * SECOND);
        return new Calls.Call(kind, ended - SECOND / 100, ended, answered);
    }

    private static Chart.Series series(Chart chart, String name) {
        return chart.series().stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .orElseThrow();
    }
}
