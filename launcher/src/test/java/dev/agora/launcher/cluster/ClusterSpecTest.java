package dev.agora.launcher.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ClusterSpecTest {

    @Test
    void defaultsAreTheLocalTopology() {
        ClusterSpec spec = ClusterSpec.defaults();
        assertThat(spec.dataDirectory()).isEqualTo(Path.of("data").toAbsolutePath());
        assertThat(spec.fresh()).isFalse();
        assertThat(spec.frontends()).isEqualTo(2);
        assertThat(spec.catalogs()).isEqualTo(2);
        assertThat(spec.orders()).isEqualTo(2);
        assertThat(spec.exchange()).isTrue();
        assertThat(spec.exchangeStandby()).isTrue();
        assertThat(spec.replicas(Tier.EXCHANGE)).isEqualTo(2);
        assertThat(spec.exchangeTcpPort(2)).isEqualTo(12346);
        assertThat(spec.withExchangeStandby(false).replicas(Tier.EXCHANGE)).isEqualTo(1);
        assertThat(spec.postgresPort()).isEqualTo(5432);
        assertThat(spec.controlPort()).isEqualTo(8390);
        assertThat(spec.exchangeTcpPort()).isEqualTo(12345);
        assertThat(spec.jvmOptions()).isEqualTo(ClusterSpec.FAST_START_JVM_OPTIONS);
    }

    @Test
    void portsOfEveryTierMoveWithTheOffset() {
        ClusterSpec spec = ClusterSpec.defaults().withPortOffset(20_000);
        assertThat(Tier.FRONTEND.port(2, spec.portOffset())).isEqualTo(28_081);
        assertThat(Tier.CATALOG.port(1, spec.portOffset())).isEqualTo(28_180);
        assertThat(Tier.ORDER.port(2, spec.portOffset())).isEqualTo(28_281);
        assertThat(Tier.EXCHANGE.port(1, spec.portOffset())).isEqualTo(28_380);
        assertThat(spec.exchangeTcpPort()).isEqualTo(32_345);
        assertThat(spec.controlPort()).isEqualTo(28_390);
    }

    @Test
    void everyWitherKeepsWhetherTheExchangeAndItsStandbyRun() {
        ClusterSpec exchangeAlone = ClusterSpec.defaults().withExchangeStandby(false);
        List<UnaryOperator<ClusterSpec>> withers = List.of(
                spec -> spec.withDataDirectory(Path.of("elsewhere")),
                spec -> spec.withFresh(true),
                spec -> spec.withFrontends(0),
                spec -> spec.withCatalogs(0),
                spec -> spec.withOrders(0),
                spec -> spec.withPortOffset(2300),
                spec -> spec.withPostgresPort(0),
                spec -> spec.withEnvironment("exchange", "JAVA_TOOL_OPTIONS", "-XX:ActiveProcessorCount=1"),
                spec -> spec.withJvmOptions(ClusterSpec.THROUGHPUT_JVM_OPTIONS),
                spec -> spec.withAotCache(true));
        for (UnaryOperator<ClusterSpec> wither : withers) {
            ClusterSpec changed = wither.apply(exchangeAlone);
            assertThat(changed.exchange()).isTrue();
            assertThat(changed.exchangeStandby()).isFalse();
            assertThat(changed.replicas(Tier.EXCHANGE)).isEqualTo(1);
        }
    }

    @Test
    void withersChangeOneThingAndKeepTheRest() {
        ClusterSpec spec = ClusterSpec.defaults()
                .withFrontends(1)
                .withCatalogs(3)
                .withOrders(0)
                .withExchange(false)
                .withEnvironment("frontend", "AGORA_CACHE_ENABLED", "false")
                .withEnvironment("frontend", "AGORA_LOADBALANCER_STRATEGY", "least-outstanding");
        assertThat(spec.replicas(Tier.FRONTEND)).isEqualTo(1);
        assertThat(spec.replicas(Tier.CATALOG)).isEqualTo(3);
        assertThat(spec.replicas(Tier.ORDER)).isZero();
        assertThat(spec.replicas(Tier.EXCHANGE)).isZero();
        assertThat(spec.environmentByService())
                .containsEntry(
                        "frontend",
                        Map.of("AGORA_CACHE_ENABLED", "false", "AGORA_LOADBALANCER_STRATEGY", "least-outstanding"));
    }

    @Test
    void aFreePortOffsetSkipsOffsetsWithATakenPortAndOffsetsClaimedBefore() throws IOException {
        // Every port of these offsets lies below the kernel's ephemeral range (32768 and up), where other processes'
        // outgoing connections could take one, and clear of the offsets other test clusters claim.
        List<Integer> offsets = List.of(10_000, 12_000, 8_000);
        try (ServerSocket catalogPort = new ServerSocket(8180 + 10_000, 1, InetAddress.getLoopbackAddress())) {
            assertThat(ClusterSpec.defaults().withFreePortOffset(offsets).portOffset())
                    .isEqualTo(12_000);
            // 12,000 is now this JVM's claim, though nothing listens on it yet: another cluster gets the next one.
            assertThat(ClusterSpec.defaults().withFreePortOffset(offsets).portOffset())
                    .isEqualTo(8_000);
            assertThatThrownBy(() -> ClusterSpec.defaults().withFreePortOffset(offsets))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("No free port offset");
        }
    }

    @Test
    void nonsenseIsRefused() {
        assertThatThrownBy(() -> ClusterSpec.defaults().withCatalogs(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ClusterSpec.defaults().withPortOffset(60_000))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ClusterSpec.defaults().withPostgresPort(70_000))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Tier.of("database")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theCommandLineBecomesASpec() {
        ClusterCommand command = new ClusterCommand();
        new CommandLine(command)
                .parseArgs(
                        "--fresh",
                        "--data-dir",
                        "/tmp/x",
                        "--catalogs",
                        "3",
                        "--no-exchange",
                        "--no-exchange-standby",
                        "--port-offset",
                        "100",
                        "--aot",
                        "--jvm",
                        "throughput",
                        "-e",
                        "catalog-2:DATABASE_POOL_SIZE=4",
                        "--env",
                        "all:AGORA_SECURITY_ISSUER=http://agora.test?a=b");
        ClusterSpec spec = command.spec();
        assertThat(spec.fresh()).isTrue();
        assertThat(spec.dataDirectory()).isEqualTo(Path.of("/tmp/x"));
        assertThat(spec.catalogs()).isEqualTo(3);
        assertThat(spec.exchange()).isFalse();
        assertThat(spec.exchangeStandby()).isFalse();
        assertThat(spec.portOffset()).isEqualTo(100);
        assertThat(spec.aotCache()).isTrue();
        assertThat(spec.jvmOptions()).isEqualTo(ClusterSpec.THROUGHPUT_JVM_OPTIONS);
        assertThat(spec.environmentByService())
                .containsEntry("catalog-2", Map.of("DATABASE_POOL_SIZE", "4"))
                .containsEntry("all", Map.of("AGORA_SECURITY_ISSUER", "http://agora.test?a=b"));
    }

    @Test
    void aMalformedEnvironmentOptionIsRefused() {
        ClusterCommand command = new ClusterCommand();
        new CommandLine(command).parseArgs("-e", "NO_TARGET=1");
        assertThatThrownBy(command::spec).isInstanceOf(IllegalArgumentException.class);
    }
}
