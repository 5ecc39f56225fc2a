package dev.agora.perf.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class LaunchedClusterTest {

    /** The option list of 5ebaaab's {@code cluster --help}, the oldest launcher a comparison has been run with. */
    private static final String HELP_5EBAAAB =
            """
            Usage: agora-perf cluster [-hV] [--aot] [--exit-when-ready] [--fresh]
                                      [--no-exchange] [--no-warm-up]
                                      [--catalogs=<catalogs>] [--data-dir=<dataDirectory>]
                                      [--frontends=<frontends>] [--jvm=<jvm>]
                                      [--orders=<orders>] [--port-offset=<portOffset>]
                                      [--postgres-port=<postgresPort>] [-e=TARGET:
                                      KEY=VALUE]...
            """;

    @Test
    void bothLaunchersGetTheSameShapeWithFlagsTheOldestOneKnows() {
        List<String> arguments = LaunchedCluster.clusterArguments(Path.of("/tmp/c/old"), 1000, 1, 1, 1, true);

        assertThat(arguments)
                .containsExactly(
                        "cluster",
                        "--fresh",
                        "--data-dir",
                        "/tmp/c/old",
                        "--port-offset",
                        "1000",
                        "--postgres-port",
                        "0",
                        "--jvm",
                        "throughput",
                        "--frontends",
                        "1",
                        "--catalogs",
                        "1",
                        "--orders",
                        "1",
                        "--no-exchange");
        assertThat(LaunchedCluster.unknownFlags(HELP_5EBAAAB, arguments)).isEmpty();
    }

    @Test
    void cacheOffTurnsOffTheFrontendsCacheAndInvalidationsThroughEnvironmentBothTreesHonour() {
        List<String> arguments = LaunchedCluster.clusterArguments(Path.of("/tmp/c/new"), 0, 2, 1, 1, false);

        assertThat(String.join(" ", arguments))
                .endsWith("--no-exchange -e frontend:AGORA_CACHE_ENABLED=false -e"
                        + " frontend:AGORA_INVALIDATION_ENABLED=false -e catalog:AGORA_INVALIDATION_ENABLED=false");
    }

    @Test
    void aFlagTheLauncherDoesNotListIsNamedBeforeAnythingStarts() {
        List<String> arguments = List.of("cluster", "--fresh", "--no-exchange-standby", "--data-dir", "x");

        assertThat(LaunchedCluster.unknownFlags(HELP_5EBAAAB, arguments)).containsExactly("--no-exchange-standby");
    }

    @Test
    void aTreeWithoutItsLauncherJarIsRefusedWithHowToBuildIt() {
        assertThatThrownBy(() -> LaunchedCluster.launch(
                        Side.BASELINE, Path.of("/nonexistent-tree"), Path.of("/tmp"), 1000, List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("perf/target/agora-perf.jar is missing")
                .hasMessageContaining("package");
    }

    @Test
    void durationsReadAsTheyAreWritten() {
        assertThat(CompareCommand.DurationConverter.parse("90s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(CompareCommand.DurationConverter.parse("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(CompareCommand.DurationConverter.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(CompareCommand.DurationConverter.parse("PT20S")).isEqualTo(Duration.ofSeconds(20));
        assertThatThrownBy(() -> CompareCommand.DurationConverter.parse("soon"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
