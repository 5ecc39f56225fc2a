package dev.agora.launcher.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.launcher.credentials.Credentials;
import java.net.URI;
import java.nio.file.Path;
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
            assertThat(env).as(tier.service()).doesNotContainKey("AGORA_AUTHORITIES");
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
                .containsEntry("AGORA_AUTHORITIES", "http://127.0.0.1:8180");
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
}
