package dev.agora.docker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agora.docker.ComposeFile.Service;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** docker/compose.yaml, as compose would read it with the placeholders of .env.example, keeps every rule. */
class ComposeFileTest {

    private final ComposeFile compose = DockerDirectory.compose();

    @Test
    void runsEveryReplicaAndInfrastructureServiceTheDesignNames() {
        assertThat(ComposeRules.missingServices(compose)).isEmpty();
        assertThat(compose.replicasOf("catalog-service")).hasSize(2);
        assertThat(compose.replicasOf("order-service")).hasSize(2);
        assertThat(compose.replicasOf("frontend-service")).hasSize(2);
        // Active and standby: one holds the lease and listens, the other takes over (exchange-service/README.md).
        assertThat(compose.replicasOf("exchange-service")).hasSize(2);
    }

    @Test
    void everyServiceHasAHealthCheck() {
        assertThat(ComposeRules.healthcheckViolations(compose)).isEmpty();
    }

    @Test
    void everyServiceHasAMemoryLimit() {
        assertThat(ComposeRules.memoryLimitViolations(compose)).isEmpty();
    }

    @Test
    void replicaListsNameExactlyTheReplicasAtTheirPorts() {
        assertThat(ComposeRules.instanceListViolations(compose)).isEmpty();
    }

    @Test
    void everyServiceIsConfiguredThroughItsEnvironment() {
        assertThat(ComposeRules.environmentViolations(compose)).isEmpty();
    }

    @Test
    void servicesAgreeOnClientSecretsAndIssuer() {
        assertThat(ComposeRules.clientSecretViolations(compose)).isEmpty();
    }

    @Test
    void servicesUseTheirOwnDatabaseAndRoleCreatedByTheInitScript() {
        String initScript = DockerDirectory.read("postgres/init-databases.sh");
        assertThat(ComposeRules.databaseViolations(compose, initScript)).isEmpty();
        assertThat(compose.service("postgres").volumes())
                .contains("./postgres/init-databases.sh:/docker-entrypoint-initdb.d/10-init-databases.sh:ro");
        // nobody but a database's owner may connect to it
        assertThat(initScript)
                .contains("REVOKE ALL ON DATABASE :\"database\" FROM PUBLIC")
                .contains("GRANT CONNECT, TEMPORARY ON DATABASE :\"database\" TO :\"owner\"")
                .contains("set -euo pipefail");
    }

    @Test
    void noTwoServicesPublishTheSameHostPort() {
        assertThat(ComposeRules.publishedPortCollisions(compose)).isEmpty();
    }

    @Test
    void publishesTheEdgeAndTheOperationsUisOnly() {
        Map<String, String> published = compose.services().values().stream()
                .filter(service -> !service.ports().isEmpty())
                .collect(Collectors.toMap(
                        Service::name, service -> service.ports().toString()));
        assertThat(published).containsOnlyKeys("edge", "prometheus", "grafana", "jaeger");
        assertThat(compose.service("edge").ports()).containsExactly("8080:8080");
        // The XML protocol carries no credentials: reachable inside the compose network only.
        for (String exchange : List.of("exchange-1", "exchange-2")) {
            assertThat(compose.service(exchange).ports()).isEmpty();
            assertThat(compose.service(exchange).definition()).doesNotContainKey("network_mode");
            assertThat(compose.service(exchange).environment())
                    .containsEntry("AGORA_EXCHANGE_TCP_PORT", "12345")
                    .containsEntry("AGORA_EXCHANGE_TCP_HOST", "0.0.0.0");
        }
        // The operations UIs stay on the loopback interface unless AGORA_OPS_BIND says otherwise.
        assertThat(compose.service("grafana").ports()).containsExactly("127.0.0.1:3000:3000");
        assertThat(compose.service("prometheus").ports()).containsExactly("127.0.0.1:9090:9090");
    }

    @Test
    void everyServiceWaitsForHealthyDependencies() {
        assertThat(ComposeRules.dependencyViolations(compose)).isEmpty();
    }

    @Test
    void theExchangesSpeakTheXmlProtocolOverTlsWithClientCertificates() {
        assertThat(ComposeRules.xmlTlsViolations(compose)).isEmpty();
        // Their certificates come from the script, into the git-ignored secrets folder.
        assertThat(DockerDirectory.ROOT.resolve("secrets/make-exchange-certs.sh"))
                .isExecutable();
        assertThat(DockerDirectory.read("secrets/.gitignore").lines()).contains("*", "!make-exchange-certs.sh");
    }

    @Test
    void mountedConfigurationFilesExist() {
        assertThat(ComposeRules.bindMountViolations(compose, DockerDirectory.ROOT))
                .isEmpty();
    }

    @Test
    void secretsComeFromVariablesNeverFromTheComposeFile() {
        ComposeFile asWritten = ComposeFile.parseUninterpolated(DockerDirectory.read("compose.yaml"));
        Pattern secret = Pattern.compile(".*(TOKEN|PASSWORD|SECRET|SIGNING_KEY).*");
        asWritten.services().values().forEach(service -> service.environment().forEach((name, value) -> {
            if (secret.matcher(name).matches())
                assertThat(value).as("%s %s", service.name(), name).matches("\\$\\{[A-Z_]+:\\?.+}");
        }));
    }

    @Test
    void everyRequiredVariableHasAPlaceholderInTheExampleEnvFile() {
        Map<String, String> example = DockerDirectory.exampleEnvironment();
        var required = Pattern.compile("\\$\\{([A-Z_]+):\\?")
                .matcher(DockerDirectory.read("compose.yaml"))
                .results()
                .map(match -> match.group(1))
                .collect(Collectors.toSet());
        assertThat(required)
                .contains(
                        "POSTGRES_PASSWORD",
                        "CATALOG_DATABASE_PASSWORD",
                        "ORDERS_DATABASE_PASSWORD",
                        "EXCHANGE_DATABASE_PASSWORD",
                        "IDENTITY_DATABASE_PASSWORD",
                        "AGORA_IDENTITY_SIGNING_KEY",
                        "AGORA_IDENTITY_SERVICE_CLIENTS_CATALOG_SERVICE",
                        "AGORA_IDENTITY_SERVICE_CLIENTS_ORDER_SERVICE");
        assertThat(example).containsKeys(required.toArray(String[]::new));
        // Placeholders the services' production profile refuses (change-me), yet long enough (32 bytes) that
        // the refusal names the placeholder rather than the length; all different, so a mix-up shows.
        required.forEach(name ->
                assertThat(example.get(name)).as(name).startsWith("change-me").hasSizeGreaterThanOrEqualTo(32));
        assertThat(required.stream().map(example::get).distinct()).hasSameSizeAs(required);
    }

    @Test
    void theRetiredSharedTokensAreGone() {
        String all = DockerDirectory.read("compose.yaml")
                + DockerDirectory.read(".env.example")
                + DockerDirectory.read("README.md");
        assertThat(all)
                .doesNotContain("AGORA_INTERNAL_TOKEN", "AGORA_ADMIN_TOKEN", "X-Internal-Token", "X-Admin-Token");
        compose.services().values().stream()
                .filter(service -> service.serviceId().isPresent())
                .forEach(service -> assertThat(service.environment())
                        .as(service.name())
                        .containsEntry("SPRING_PROFILES_ACTIVE", "prod"));
    }

    @Test
    void theFrontendsMayReadTheOptionalSeedFile() {
        for (Service frontend : compose.replicasOf("frontend-service")) {
            assertThat(frontend.volumes()).contains("./secrets:/run/agora-secrets:ro");
            assertThat(frontend.environment()).containsKey("AGORA_IDENTITY_SEED_FILE");
        }
        assertThat(DockerDirectory.read("secrets/.gitignore").lines()).contains("*", "!README.md");
    }

    @Test
    void composeRefusesToStartWithoutTheSecrets() {
        assertThatThrownBy(() -> ComposeFile.parse(DockerDirectory.read("compose.yaml"), Map.of()))
                .hasMessageContaining("docker/.env");
    }

    @Test
    void theRealEnvFileIsNeverCommitted() {
        assertThat(DockerDirectory.read(".gitignore").lines()).contains(".env");
    }
}
