package dev.agora.perf.experiment.partitions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agora.launcher.toxiproxy.ToxiproxyServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Issue 52's CI run: the whole cluster with every link through Toxiproxy, 8 buyers and 8 traders, and a short
 * schedule with one fault of every kind (the exchange leader cut from its database first). Nothing acknowledged may
 * be lost or doubled, nothing oversold, cash and shares conserved, one exchange leader at a time.
 */
@EnabledIfSystemProperty(named = "agora.cluster-tests", matches = "true")
class PartitionsScheduleTest {

    @Test
    void aShortScheduleOfEveryFaultKindLosesNothingAcknowledged() throws Exception {
        assumeTrue(
                ToxiproxyServer.locate().isPresent(),
                "Toxiproxy's server is not installed: run .ci/install-toxiproxy.sh");
        Path data = Files.createTempDirectory("agora-partitions-ci-");
        PartitionsRun.Plan plan =
                new PartitionsRun.Plan(8, 4, 4, Duration.ofSeconds(5), Duration.ofSeconds(2), Duration.ofSeconds(3));
        PartitionsRun.Result result;
        try (LinkedCluster linked = LinkedCluster.start(
                PartitionsExperiment.spec(data.resolve("cluster")), data.resolve("toxiproxy.log"))) {
            result = PartitionsRun.run(linked, plan, Nemesis.shortSchedule(), System.out::println);
        } finally {
            PartitionsExperiment.deleteQuietly(data);
        }

        assertThat(result.faults())
                .extracting(Nemesis.Applied::kind)
                .containsAll(List.of("partition", "latency", "bandwidth", "reset", "kill", "pause"));
        assertThat(result.bookstore().problems()).isEmpty();
        assertThat(result.bookstore().acknowledged()).isPositive();
        assertThat(result.bookstore().lost()).isZero();
        assertThat(result.bookstore().duplicated()).isZero();
        assertThat(result.bookstore().oversold()).isZero();
        assertThat(result.exchange().problems()).isEmpty();
        assertThat(result.exchange().acknowledged()).isPositive();
        assertThat(result.exchange().lost()).isZero();
        assertThat(result.exchange().cashConserved()).isTrue();
        assertThat(result.exchange().sharesConserved()).isTrue();
        assertThat(result.exchange().leadersAtOnce()).isEqualTo(1);
        assertThat(result.costs()).isNotEmpty();
    }
}
