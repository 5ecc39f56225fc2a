package dev.agora.launcher.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.launcher.credentials.Credentials;
import dev.agora.local.process.ServiceProcess;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What every instance is started with, without starting anything. */
class ClusterStarterTest {

    private final ClusterSpec spec =
            ClusterSpec.defaults().withDataDirectory(Path.of("/tmp/agora-data")).withPortOffset(100);

    @Test
    void everyInstanceRunsTheLocalProfileAndOnlyFrontendsReadTheDemoUsers() {
        ClusterStarter starter = new ClusterStarter(spec);
        for (Tier tier : Tier.values()) {
            Map<String, String> env = starter.environment(tier, 1, null, Map.of());
            assertThat(env).as(tier.service()).containsEntry("SPRING_PROFILES_ACTIVE", "local");
            assertThat(env).as(tier.service()).doesNotContainKey("AGORA_SECURITY_AUTHORITIES");
            if (tier == Tier.FRONTEND) {
                assertThat(env)
                        .containsEntry("AGORA_IDENTITY_SEED_FILE", "/tmp/agora-data/demo-credentials.properties");
            } else {
                assertThat(env).doesNotContainKey("AGORA_IDENTITY_SEED_FILE");
            }
            assertThat(env.keySet()).noneMatch(key -> key.contains("TOKEN"));
        }
        assertThat(Tier.FRONTEND.database()).contains("identity");
    }

    @Test
    void withoutFrontendsTheTokenKeysAreLookedForWhereThisClustersFirstFrontendWouldBe() {
        Map<String, String> env =
                new ClusterStarter(spec.withFrontends(0)).environment(Tier.EXCHANGE, 1, null, Map.of());

        assertThat(env)
                .containsEntry("FRONTEND_INSTANCES", "")
                .containsEntry("AGORA_SECURITY_AUTHORITIES", "http://127.0.0.1:8180");
    }

    @Test
    void frontendsRunWithoutRateLimitsUnlessAskedFor() {
        assertThat(new ClusterStarter(spec).environment(Tier.FRONTEND, 1, null, Map.of()))
                .containsEntry("AGORA_LIMITS_RATES_ENABLED", "false");

        ClusterSpec limited = spec.withEnvironment("frontend", "AGORA_LIMITS_RATES_ENABLED", "true");
        assertThat(new ClusterStarter(limited).environment(Tier.FRONTEND, 1, null, Map.of()))
                .containsEntry("AGORA_LIMITS_RATES_ENABLED", "true");
    }

    @Test
    void theProfileCanBeOverriddenToSeeAServiceRefuseItsDevelopmentSecrets() {
        ClusterSpec production = spec.withEnvironment("catalog", "SPRING_PROFILES_ACTIVE", "production");

        assertThat(new ClusterStarter(production).environment(Tier.CATALOG, 1, null, Map.of()))
                .containsEntry("SPRING_PROFILES_ACTIVE", "production");
    }

    @Test
    void theTokenCommandReadsTheSecretFromTheFileInsteadOfPrintingIt() {
        Credentials credentials = Credentials.generate(URI.create("http://127.0.0.1:8080/oauth2/token"));

        String command = ClusterTable.tokenCommand(Path.of("/tmp/my data/demo-credentials.properties"), credentials);

        assertThat(command)
                .isEqualTo("curl -s -u \"demo-customer:$(grep ^customer.client-secret="
                        + " '/tmp/my data/demo-credentials.properties' | cut -d= -f2)\""
                        + " -d grant_type=client_credentials http://127.0.0.1:8080/oauth2/token")
                .doesNotContain(credentials.customer().secret());
    }

    @Test
    void theFirstReplicaOfEachBookstoreTierStartsFirstAndTheRestAfterAtLowPriority() {
        ClusterStarter starter =
                new ClusterStarter(spec, StartProgress.NONE, Cluster.AotTraining.AFTER_READY); // the launcher's command

        List<ClusterStarter.Phase> phases = starter.phases(members(spec));

        assertThat(phases).extracting(ClusterStarter.Phase::niceness).containsExactly(0, 10, 10);
        assertThat(phases).extracting(ClusterStarter.Phase::compilerNiceness).containsExactly(19, 19, 19);
        assertThat(names(phases.get(0))).containsExactlyInAnyOrder("catalog-1", "order-1", "frontend-1");
        assertThat(names(phases.get(1))).containsExactlyInAnyOrder("catalog-2", "order-2", "frontend-2", "exchange-1");
        assertThat(names(phases.get(2))).containsExactly("exchange-2");
    }

    @Test
    void testsAndExperimentsStartTheRestAtNormalPriorityInTheSameOrder() {
        List<ClusterStarter.Phase> phases = new ClusterStarter(spec).phases(members(spec));

        assertThat(phases).extracting(ClusterStarter.Phase::niceness).containsExactly(0, 0, 0);
        assertThat(phases).extracting(ClusterStarter.Phase::compilerNiceness).containsExactly(0, 0, 0);
        assertThat(names(phases.get(0))).containsExactlyInAnyOrder("catalog-1", "order-1", "frontend-1");
    }

    @Test
    void anExchangeOnlyClusterStartsItsActiveExchangeFirstAndItsStandbyAfter() {
        ClusterSpec exchangeOnly = spec.withFrontends(0).withCatalogs(0).withOrders(0);

        List<ClusterStarter.Phase> phases = new ClusterStarter(exchangeOnly).phases(members(exchangeOnly));

        assertThat(phases).extracting(ClusterStarter.Phase::niceness).containsExactly(0, 0);
        assertThat(names(phases.get(0))).containsExactly("exchange-1");
        assertThat(names(phases.get(1))).containsExactly("exchange-2");
    }

    @Test
    void onlyTheFirstReplicaOfATierMigratesAndChecksItsDatabase() {
        ClusterStarter starter = new ClusterStarter(spec);
        for (Tier tier : Tier.values()) {
            assertThat(starter.environment(tier, 1, null, Map.of()))
                    .as(tier.service())
                    .doesNotContainKeys("SPRING_FLYWAY_ENABLED", "SPRING_JPA_HIBERNATE_DDL_AUTO");
            assertThat(starter.environment(tier, 2, null, Map.of()))
                    .as(tier.service())
                    .containsEntry("SPRING_FLYWAY_ENABLED", "false")
                    .containsEntry("SPRING_JPA_HIBERNATE_DDL_AUTO", "none");
        }
    }

    /** The cluster's instances as the starter makes them, not started. */
    private static List<Cluster.Member> members(ClusterSpec spec) {
        List<Cluster.Member> members = new ArrayList<>();
        for (Tier tier : Tier.values()) {
            for (int index = 1; index <= spec.replicas(tier); index++) {
                String name = tier.instanceName(index);
                members.add(new Cluster.Member(
                        name,
                        tier,
                        ServiceProcess.builder(name, Path.of(tier.module() + ".jar"), tier.port(index, 100))
                                .build()));
            }
        }
        return members;
    }

    private static List<String> names(ClusterStarter.Phase phase) {
        return phase.members().stream().map(Cluster.Member::name).toList();
    }
}
