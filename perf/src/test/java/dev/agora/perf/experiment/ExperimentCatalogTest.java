package dev.agora.perf.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agora.launcher.cluster.ClusterSpec;
import dev.agora.launcher.credentials.AccessTokens;
import dev.agora.launcher.credentials.Credentials;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExperimentCatalogTest {

    @Test
    void everyRowOfExperimentsMdIsThereInOrderWithTheExchangeTargetsBesideTheirSeedsReplay() {
        assertThat(Experiments.all().stream().map(Experiment::name))
                .containsExactly(
                        "tiers",
                        "frontends",
                        "exchange-scalability",
                        // not a row of EXPERIMENTS.md: issue 6's creates-only / transactions-only targets
                        "exchange-throughput",
                        // not a row either: issue 29's memory and restart time against history
                        "exchange-history",
                        // nor this: issue 32's takeover of the exchange by its standby
                        "exchange-failover",
                        "bookstore-sequential",
                        "cache",
                        "bookstore-concurrent",
                        "tier-breakdown",
                        "failover",
                        "register-search-download",
                        "transfer-sizes",
                        "centralized-vs-distributed",
                        // not a row either: issue 33's book page against the JSON lookup
                        "book-page");
        assertThat(Experiments.named("cache")).isPresent();
        assertThat(Experiments.named("nope")).isEmpty();
        assertThat(Experiments.all()).allSatisfy(e -> {
            assertThat(e.seed()).matches("\\d{3}(, \\d{3})*");
            assertThat(e.workload()).isNotBlank();
            assertThat(e.seedFigure()).isNotBlank();
        });
    }

    @Test
    void aSittingIsEveryExperimentOfRunAllThenTheNamedOnesEachOnce() {
        List<String> sitting = Experiments.selected(List.of("all", "partitions", "cache")).stream()
                .map(Experiment::name)
                .toList();

        assertThat(sitting).hasSize(Experiments.all().size() + 1).doesNotHaveDuplicates();
        assertThat(sitting).startsWith("tiers", "frontends").endsWith("book-page", "partitions");
        assertThat(Experiments.selected(List.of("cache", "tiers")).stream().map(Experiment::name))
                .containsExactly("cache", "tiers");
        assertThatThrownBy(() -> Experiments.selected(List.of("all", "nope")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nope");
    }

    @Test
    void seed003RowsAreMeasuredNowThatBooksCarryFiles() {
        assertThat(List.of("register-search-download", "transfer-sizes", "centralized-vs-distributed"))
                .allSatisfy(name -> assertThat(Experiments.named(name).orElseThrow())
                        .isNotInstanceOf(NotApplicableExperiment.class));
    }

    @Test
    void shapesWithoutCacheTurnOffCacheAndInvalidationAndCompareByValue() {
        ClusterShape plain = ClusterShape.bookstore();
        ClusterShape uncached = plain.withoutCache();

        assertThat(plain.cacheEnabled()).isTrue();
        assertThat(uncached.cacheEnabled()).isFalse();
        assertThat(uncached.environment().get("frontend")).containsEntry("AGORA_CACHE_ENABLED", "false");
        assertThat(uncached.environment().get("catalog")).containsEntry("AGORA_INVALIDATION_ENABLED", "false");
        assertThat(ClusterShape.bookstore().withoutCache()).isEqualTo(uncached);
        assertThat(uncached).isNotEqualTo(plain);
        assertThat(plain.withReplicas(1, 1, 1)).isNotEqualTo(plain);
    }

    @Test
    void everyClusterGetsItsOwnPortsClearOfTheDevelopersCluster() {
        ClusterPool pool = new ClusterPool(false, true, Path.of("/tmp/x"), null, line -> {}, target -> "");
        ClusterShape shape = ClusterShape.bookstore().withReplicas(16, 2, 2).withoutCache();
        for (int index = 0; index < 12; index++) {
            ClusterSpec spec = pool.spec(shape, index);
            int offset = spec.portOffset();
            List<Integer> ports = List.of(
                    8080 + offset,
                    8080 + 15 + offset,
                    8180 + offset,
                    8281 + offset,
                    8380 + offset,
                    spec.controlPort(),
                    spec.exchangeTcpPort());
            assertThat(ports).allSatisfy(port -> {
                assertThat(port).isLessThan(65536);
                assertThat(port < 8080 || port > 8381).isTrue();
                assertThat(port).isNotEqualTo(12345);
            });
            if (index > 0) {
                assertThat(offset - pool.spec(shape, index - 1).portOffset())
                        .isGreaterThanOrEqualTo(ClusterPool.PORT_OFFSET_STEP);
            }
            assertThat(spec.frontends()).isEqualTo(16);
            assertThat(spec.aotCache()).isTrue();
            assertThat(spec.dataDirectory()).isEqualTo(Path.of("/tmp/x"));
            assertThat(spec.environmentByService().get("frontend")).containsEntry("AGORA_CACHE_ENABLED", "false");
            assertThat(spec.jvmOptions()).isEqualTo(ClusterSpec.FAST_START_JVM_OPTIONS);
        }
        assertThat(new ClusterPool(true, false, Path.of("/tmp/x"), null, line -> {}, target -> "")
                        .spec(shape, 0)
                        .jvmOptions())
                .isEqualTo(ClusterSpec.THROUGHPUT_JVM_OPTIONS);
    }

    @Test
    void aReusedClusterCannotStandInForTwoSideBySide() {
        Target reused = new ReusedTarget(
                null,
                List.of("http://127.0.0.1:9"),
                new AccessTokens(Credentials.generate(URI.create("http://127.0.0.1:9/oauth2/token"))));
        ClusterPool pool = new ClusterPool(false, false, Path.of("/tmp/x"), reused, line -> {}, target -> "");

        assertThat(pool.acquire(ClusterShape.bookstore())).isSameAs(reused);
        assertThatThrownBy(() -> pool.acquirePair(
                        ClusterShape.bookstore(), ClusterShape.bookstore().withoutCache()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("side by side");
    }
}
