package dev.agora.perf.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.perf.report.Report;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BuyCostReportTest {

    /** A batch of 1,000 buys whose server CPU is split evenly over the four tiers. */
    private static BuyCostCommand.Batch batch(int round, Side side, int clients, double seconds, double cpuMsPerBuy) {
        double perTier = cpuMsPerBuy * 1000 / 4;
        return new BuyCostCommand.Batch(
                round,
                side,
                clients,
                1000,
                0,
                "",
                seconds,
                20,
                60,
                Map.of(
                        CpuTier.FRONTEND, perTier,
                        CpuTier.CATALOG, perTier,
                        CpuTier.ORDER, perTier,
                        CpuTier.POSTGRES, perTier),
                cpuMsPerBuy * 1000 / 10);
    }

    private final List<BuyCostCommand.Batch> batches = List.of(
            batch(0, Side.BASELINE, 10, 4, 5.2),
            batch(0, Side.CANDIDATE, 10, 2, 2.4),
            batch(0, Side.BASELINE, 32, 4, 5.6),
            batch(0, Side.CANDIDATE, 32, 1.6, 2.6),
            batch(1, Side.CANDIDATE, 10, 2.5, 2.2),
            batch(1, Side.BASELINE, 10, 5, 5.0),
            batch(1, Side.CANDIDATE, 32, 1.5, 2.8),
            batch(1, Side.BASELINE, 32, 4, 5.4),
            batch(2, Side.BASELINE, 10, 4.5, 9.0),
            batch(2, Side.CANDIDATE, 10, 2.2, 2.5),
            batch(2, Side.BASELINE, 32, 3.5, 5.5),
            batch(2, Side.CANDIDATE, 32, 1.7, 2.7));

    private final BuyCostReport.Setup setup = new BuyCostReport.Setup(
            Map.of(Side.BASELINE, "aaaaaaa", Side.CANDIDATE, "bbbbbbb"),
            Map.of(Side.BASELINE, Path.of("/tmp/old"), Side.CANDIDATE, Path.of("/tmp/new")),
            "{catalog=2, frontend=2, order=2}",
            3,
            List.of(10, 32),
            1000,
            Duration.ofMinutes(2),
            0.05,
            Map.of(
                    Side.BASELINE,
                    new SettledWarmUp.WarmedUp(Duration.ofMinutes(6), 0, 0.03, true),
                    Side.CANDIDATE,
                    new SettledWarmUp.WarmedUp(Duration.ofMinutes(15), 1, 0.08, false)));

    @Test
    void aBatchCostsTheCpuOfEveryTierDividedByItsBuysAndRunsAtBuysOverItsWallTime() {
        BuyCostCommand.Batch batch = batch(0, Side.BASELINE, 10, 4, 5.2);

        assertThat(batch.cpuMsPerBuy()).isCloseTo(5.2, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(batch.cpuMsPerBuy(CpuTier.ORDER)).isCloseTo(1.3, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(batch.buysPerSecond()).isEqualTo(250);
    }

    @Test
    void aClusterWarmsUpForTheLeastTimeThenWhileItsCompilersAreBusyButNoLongerThanTheLimit() {
        Duration least = Duration.ofMinutes(2);
        Duration limit = Duration.ofMinutes(15);

        assertThat(SettledWarmUp.warmingUp(Duration.ofMinutes(1), 0.0, least, 0.05, limit))
                .isTrue();
        assertThat(SettledWarmUp.warmingUp(Duration.ofMinutes(3), 0.2, least, 0.05, limit))
                .isTrue();
        assertThat(SettledWarmUp.warmingUp(Duration.ofMinutes(3), 0.04, least, 0.05, limit))
                .isFalse();
        assertThat(SettledWarmUp.warmingUp(Duration.ofMinutes(15), 0.2, least, 0.05, limit))
                .isFalse();
    }

    @Test
    void mediansArePerTreeAndClientCountSoOneNoisyRoundDoesNotMoveThem() {
        assertThat(BuyCostReport.median(batches, Side.BASELINE, 10, BuyCostCommand.Batch::cpuMsPerBuy))
                .isCloseTo(5.2, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(BuyCostReport.median(batches, Side.CANDIDATE, 32, BuyCostCommand.Batch::buysPerSecond))
                .isCloseTo(1000 / 1.6, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(BuyCostReport.median(batches, Side.CANDIDATE, 64, BuyCostCommand.Batch::buysPerSecond))
                .isNaN();
    }

    @Test
    void theHeadlineAndMediansGiveOldAgainstNewForBothGatesAndEveryTier() {
        Report report =
                BuyCostReport.build(setup, batches, Instant.parse("2026-11-29T07:00:00Z"), Duration.ofMinutes(20));

        assertThat(report.title()).contains("aaaaaaa").contains("bbbbbbb");
        assertThat(report.headline())
                .contains("server CPU per buy at 10 clients 5.2 -> 2.4 ms")
                .contains("buys/s at 10 clients 222 -> 455")
                .contains("buys/s at 32 clients 250 -> 625");
        List<List<String>> medians = report.sections().get(1).table().rows();
        assertThat(medians).anySatisfy(row -> assertThat(row)
                .containsExactly("of which order, ms (10 clients)", "1.3", "0.6", "0.462"));
        assertThat(medians).anySatisfy(row -> assertThat(row)
                .containsExactly("of which JIT compilers, ms (10 clients)", "0.52", "0.24", "0.462"));
        assertThat(medians).hasSize(2 * (1 + CpuTier.values().length + 1 + 3));
        assertThat(report.sections().getFirst().text())
                .contains("warmed up 360 s, its JIT compilers 3% of its CPU")
                .contains(
                        "warmed up 900 s, its JIT compilers 8% of its CPU over its last slice of buys (**not settled**");
        assertThat(report.sections().get(2).table().rows()).hasSize(batches.size());
    }
}
