package dev.agora.docker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agora.docker.ComposeFile.Service;
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
        assertThat(compose.replicasOf("exchange-service")).hasSize(1);
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
    void servicesUseTheirOwnDatabaseCreatedByTheInitScript() {
        String initScript = DockerDirectory.read("postgres/init-databases.sql");
        assertThat(ComposeRules.databaseViolations(compose, initScript)).isEmpty();
        assertThat(compose.service("postgres").volumes())
                .anyMatch(volume -> volume.startsWith("./postgres/init-databases.sql:/docker-entrypoint-initdb.d/"));
    }

    @Test
    void noTwoServicesPublishTheSameHostPort() {
        assertThat(ComposeRules.publishedPortCollisions(compose)).isEmpty();
    }

    @Test
    void publishesTheEdgeAndTheExchangeProtocolOnly() {
        Map<String, String> published = compose.services().values().stream()
                .filter(service -> !service.ports().isEmpty())
                .collect(Collectors.toMap(
                        Service::name, service -> service.ports().toString()));
        assertThat(published).containsOnlyKeys("edge", "exchange", "prometheus", "grafana");
        assertThat(compose.service("edge").ports()).containsExactly("8080:8080");
        assertThat(compose.service("exchange").ports()).containsExactly("12345:12345");
        assertThat(compose.service("exchange").environment()).containsEntry("AGORA_EXCHANGE_TCP_PORT", "12345");
        // The operations UIs stay on the loopback interface unless AGORA_OPS_BIND says otherwise.
        assertThat(compose.service("grafana").ports()).containsExactly("127.0.0.1:3000:3000");
        assertThat(compose.service("prometheus").ports()).containsExactly("127.0.0.1:9090:9090");
    }

    @Test
    void everyServiceWaitsForHealthyDependencies() {
        assertThat(ComposeRules.dependencyViolations(compose)).isEmpty();
    }

    @Test
    void mountedConfigurationFilesExist() {
        assertThat(ComposeRules.bindMountViolations(compose, DockerDirectory.ROOT))
                .isEmpty();
    }

    @Test
    void secretsComeFromVariablesNeverFromTheComposeFile() {
        ComposeFile asWritten = ComposeFile.parseUninterpolated(DockerDirectory.read("compose.yaml"));
        Pattern secret = Pattern.compile(".*(TOKEN|PASSWORD).*");
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
        assertThat(required).contains("AGORA_INTERNAL_TOKEN", "AGORA_ADMIN_TOKEN", "DATABASE_PASSWORD");
        assertThat(example).containsKeys(required.toArray(String[]::new));
        required.forEach(name -> assertThat(example.get(name)).as(name).startsWith("change-me"));
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
