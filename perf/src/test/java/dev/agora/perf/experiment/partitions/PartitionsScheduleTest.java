package dev.agora.perf.experiment.partitions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agora.launcher.toxiproxy.ToxiproxyServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Issue 52's CI run, within two minutes: a cluster with every link through Toxiproxy (one frontend, two catalogs, two
 * order services, the exchange and its standby), 8 buyers and 8 traders, and a short schedule with every kind of fault
 * on links the load uses, two or three at a time (the exchange leader cut from its database first), and a catalog's
 * clock stepped ahead. Nothing acknowledged may be lost or doubled, nothing oversold, cash and shares conserved, one
 * exchange leader at a time; the stepped catalog must go not ready and come back.
 */
@EnabledIfSystemProperty(named = "agora.cluster-tests", matches = "true")
class PartitionsScheduleTest {

    @Test
    void aShortScheduleOfEveryFaultKindLosesNothingAcknowledged() throws Exception {
        assumeTrue(
                ToxiproxyServer.locate().isPresent(),
                "Toxiproxy's server is not installed: run .ci/install-toxiproxy.sh");
        assumeTrue(SteppedClock.locate().isPresent(), "libfaketime is not installed: run .ci/install-libfaketime.sh");
        long began = System.nanoTime();
        Path data = Files.createTempDirectory("agora-partitions-ci-");
        PartitionsRun.Plan plan =
                new PartitionsRun.Plan(8, 4, 4, Duration.ofSeconds(3), Duration.ofSeconds(1), Duration.ofSeconds(2));
        Optional<SteppedClock> clock = SteppedClock.of(Nemesis.CLOCK_INSTANCE, data.resolve("clock"));
        PartitionsRun.Result result;
        try (LinkedCluster linked = LinkedCluster.start(
                PartitionsExperiment.spec(data.resolve("cluster")).withFrontends(1),
                data.resolve("toxiproxy.log"),
                clock)) {
            System.out.println("  cluster up after " + (System.nanoTime() - began) / 1_000_000 + " ms");
            result = PartitionsRun.run(linked, plan, Nemesis.shortSchedule(true), System.out::println);
        } catch (Exception | Error e) {
            // The instances' and Toxiproxy's logs say why: they stay.
            System.out.println("  logs kept in " + data);
            throw e;
        }
        PartitionsExperiment.deleteQuietly(data);
        System.out.println("  faults " + result.faultsJson());
        System.out.println("  bookstore " + result.bookstore().json() + "; exchange "
                + result.exchange().json());
        System.out.println("  done after " + (System.nanoTime() - began) / 1_000_000 + " ms");

        assertThat(result.faults()).extracting(Nemesis.Applied::kind).containsAll(Nemesis.KINDS);
        Map<String, Object> stepped = result.faults().stream()
                .filter(fault -> fault.kind().equals("clock"))
                .findFirst()
                .orElseThrow()
                .observed();
        assertThat((Long) stepped.get("notReadyAfterMillis"))
                .as("the catalog whose clock stepped 2 s ahead went not ready: " + stepped)
                .isNotNegative();
        assertThat((Long) stepped.get("readyAgainAfterMillis"))
                .as("and was ready again once its clock was back: " + stepped)
                .isNotNegative();
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
