package dev.agora.perf.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.perf.report.Report;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StartUpReportTest {

    private static StartUpCommand.Start fresh(Side side, int run, double buySeconds, double firstMs, double laterMs) {
        return new StartUpCommand.Start(
                side, true, run, buySeconds - 5, buySeconds, new StartUpCommand.Buys(firstMs, laterMs, 3.5, 0));
    }

    private static StartUpCommand.Start restart(Side side, int run, double buySeconds) {
        return new StartUpCommand.Start(side, false, run, buySeconds - 5, buySeconds, null);
    }

    private final List<StartUpCommand.Start> starts = List.of(
            fresh(Side.BASELINE, 0, 70, 180, 18),
            fresh(Side.CANDIDATE, 0, 30, 40, 20),
            restart(Side.BASELINE, 0, 60),
            restart(Side.CANDIDATE, 0, 18),
            fresh(Side.CANDIDATE, 1, 26, 36, 20),
            fresh(Side.BASELINE, 1, 80, 200, 20),
            restart(Side.CANDIDATE, 1, 22),
            restart(Side.BASELINE, 1, 64),
            fresh(Side.BASELINE, 2, 75, 190, 19),
            fresh(Side.CANDIDATE, 2, 90, 44, 22),
            restart(Side.BASELINE, 2, 62),
            restart(Side.CANDIDATE, 2, 20));

    @Test
    void mediansAreTakenPerTreeAndKindOfStartSoOneSlowStartDoesNotMoveThem() {
        assertThat(StartUpReport.median(starts, Side.CANDIDATE, true, StartUpCommand.Start::buySeconds))
                .isEqualTo(30);
        assertThat(StartUpReport.median(starts, Side.BASELINE, true, StartUpCommand.Start::buySeconds))
                .isEqualTo(75);
        assertThat(StartUpReport.median(starts, Side.CANDIDATE, false, StartUpCommand.Start::buySeconds))
                .isEqualTo(20);
        assertThat(StartUpReport.median(starts.subList(0, 2), Side.BASELINE, false, StartUpCommand.Start::buySeconds))
                .isNaN();
    }

    @Test
    void theHeadlineAndTheMediansTableGiveOldAgainstNewForEveryGateFigure() {
        StartUpReport.Setup setup = new StartUpReport.Setup(
                Map.of(Side.BASELINE, "aaaaaaa", Side.CANDIDATE, "bbbbbbb"),
                Map.of(Side.BASELINE, Path.of("/tmp/old"), Side.CANDIDATE, Path.of("/tmp/new")),
                3,
                100,
                3000);
        Report report =
                StartUpReport.build(setup, starts, Instant.parse("2026-11-29T04:00:00Z"), Duration.ofMinutes(20));

        assertThat(report.title()).contains("aaaaaaa").contains("bbbbbbb");
        assertThat(report.headline())
                .contains("fresh start to first buy 75 -> 30 s")
                .contains("restart 62 -> 20 s")
                .contains("first buys p50 190 -> 40 ms");
        Report.Section medians = report.sections().get(1);
        assertThat(medians.table().rows())
                .anySatisfy(row -> assertThat(row).containsExactly("first/later p50", "10", "2", "0.2"));
        assertThat(report.sections().get(2).table().rows()).hasSize(starts.size());
    }
}
