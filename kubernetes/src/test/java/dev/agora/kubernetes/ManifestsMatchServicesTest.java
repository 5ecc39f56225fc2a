package dev.agora.kubernetes;

import static dev.agora.kubernetes.Manifests.at;
import static dev.agora.kubernetes.Manifests.cast;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The manifests of {@code kubernetes/base} agree with each service's own configuration: the ports it listens on, the
 * environment variables it reads, the management port and health groups its probes ask. A renamed variable or a moved
 * port in a service fails here, not in a cluster.
 */
class ManifestsMatchServicesTest {

    /** Workload name in the manifests, and the service's module. */
    private static final Map<String, String> SERVICES = Map.of(
            "frontend", "frontend-service",
            "catalog", "catalog-service",
            "order", "order-service",
            "exchange", "exchange-service");

    private static final int MANAGEMENT_PORT = 9000;

    /** What the catalog's S3 client reads itself, through the AWS SDK's default credential and region chains. */
    private static final Set<String> AWS_SDK_VARIABLES =
            Set.of("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_REGION");

    private final Manifests manifests = Manifests.base();
    private final Map<String, String> settings = manifests.configMap("agora-settings");

    @ParameterizedTest
    @ValueSource(strings = {"frontend", "catalog", "order", "exchange"})
    void eachServiceListensOnThePortItsConfigurationDefaultsTo(String name) {
        ServiceConfiguration configuration = ServiceConfiguration.of(SERVICES.get(name));
        assertThat(configuration.property("server.port")).asString().startsWith("${PORT:");
        int port = Integer.parseInt(configuration.defaultOf("PORT").orElseThrow());

        Map<String, Object> container = manifests.container(name);
        assertThat(ports(container)).containsEntry("http", port);
        assertThat(environment(container)).containsEntry("PORT", Integer.toString(port));
        Map<String, Object> service = manifests.get("Service", name);
        List<Map<String, Object>> servicePorts = cast(at(service, "spec", "ports"));
        assertThat(servicePorts)
                .anySatisfy(p -> assertThat(p).containsEntry("port", port).containsEntry("targetPort", "http"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"frontend", "catalog", "order", "exchange"})
    void actuatorAnswersOnTheManagementPortWhereTheProbesAskItsHealthGroups(String name) {
        ServiceConfiguration configuration = ServiceConfiguration.of(SERVICES.get(name));
        // The liveness and readiness groups exist, and health is exposed over HTTP.
        assertThat(configuration.property("management.endpoint.health.probes.enabled"))
                .isEqualTo(true);
        assertThat(configuration.property("management.endpoints.web.exposure.include"))
                .asString()
                .contains("health");
        assertThat(configuration.property("management.server.port"))
                .as("outside local, actuator answers on the management port, overridable by MANAGEMENT_SERVER_PORT")
                .isEqualTo("${MANAGEMENT_SERVER_PORT:" + MANAGEMENT_PORT + "}");

        Map<String, Object> container = manifests.container(name);
        assertThat(environment(container)).containsEntry("MANAGEMENT_SERVER_PORT", Integer.toString(MANAGEMENT_PORT));
        assertThat(ports(container)).containsEntry("management", MANAGEMENT_PORT);
        assertThat(at(container, "livenessProbe", "httpGet")).isEqualTo(probe("/actuator/health/liveness"));
        assertThat(at(container, "readinessProbe", "httpGet")).isEqualTo(probe("/actuator/health/readiness"));
        assertThat(at(container, "startupProbe", "httpGet")).isEqualTo(probe("/actuator/health/liveness"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"frontend", "catalog", "order", "exchange"})
    void everyVariableAServiceIsGivenIsOneItReads(String name) {
        ServiceConfiguration configuration = ServiceConfiguration.of(SERVICES.get(name));
        SpringBootProperties boot = new SpringBootProperties();
        Map<String, Object> container = manifests.container(name);
        List<Map<String, Object>> env = cast(container.get("env"));
        Set<String> expandedElsewhere = new HashSet<>();
        Matcher references = Pattern.compile("\\$\\(([A-Z_]+)\\)").matcher(env.toString());
        while (references.find()) expandedElsewhere.add(references.group(1));
        assertThat(env.stream().map(e -> (String) e.get("name")))
                .allSatisfy(variable -> assertThat(configuration.readsVariable(variable)
                                || boot.binds(variable)
                                || expandedElsewhere.contains(variable)
                                || (name.equals("catalog") && AWS_SDK_VARIABLES.contains(variable)))
                        .as("%s reads %s", configuration.module(), variable)
                        .isTrue());
    }

    @Test
    void everySharedSettingIsReadByAServiceThatGetsIt() {
        SpringBootProperties boot = new SpringBootProperties();
        List<ServiceConfiguration> services =
                SERVICES.values().stream().map(ServiceConfiguration::of).toList();
        assertThat(settings.keySet()).allSatisfy(variable -> assertThat(
                        boot.binds(variable) || services.stream().anyMatch(s -> s.readsVariable(variable)))
                .as("some service reads %s", variable)
                .isTrue());
    }

    @Test
    void tracesAreSwitchedOnWithSpringBootsOwnPropertyNames() {
        SpringBootProperties boot = new SpringBootProperties();
        for (String variable : List.of(
                "MANAGEMENT_TRACING_EXPORT_ENABLED",
                "MANAGEMENT_OPENTELEMETRY_TRACING_EXPORT_OTLP_ENDPOINT",
                "MANAGEMENT_TRACING_SAMPLING_PROBABILITY")) {
            assertThat(settings).containsKey(variable);
            assertThat(boot.binds(variable)).as(variable).isTrue();
        }
    }

    @Test
    void theReplicaListsNameEachServiceOnItsPort() {
        Map<String, String> lists = new LinkedHashMap<>();
        lists.put("CATALOG_INSTANCES", "catalog");
        lists.put("ORDER_INSTANCES", "order");
        lists.put("EXCHANGE_INSTANCES", "exchange");
        lists.put("FRONTEND_INSTANCES", "frontend");
        lists.put("AGORA_SECURITY_AUTHORITIES", "frontend");
        lists.forEach((variable, name) -> {
            int port = Integer.parseInt(ServiceConfiguration.of(SERVICES.get(name))
                    .defaultOf("PORT")
                    .orElseThrow());
            assertThat(Arrays.stream(settings.get(variable).split(",")).map(URI::create))
                    .as(variable)
                    .isNotEmpty()
                    .allSatisfy(uri -> assertThat(uri.getPort()).isEqualTo(port));
        });
    }

    @Test
    void theExchangeListensForItsXmlProtocolOnTheContainerPortItsServiceNames() {
        ServiceConfiguration exchange = ServiceConfiguration.of("exchange-service");
        Map<String, Object> container = manifests.container("exchange");
        String port = environment(container).get("AGORA_EXCHANGE_TCP_PORT");
        assertThat(exchange.readsVariable("AGORA_EXCHANGE_TCP_PORT")).isTrue();
        assertThat(port).isEqualTo(String.valueOf(exchange.property("agora.exchange.tcp-port")));
        assertThat(ports(container)).containsEntry("xml", Integer.parseInt(port));
        assertThat(environment(container)).containsEntry("AGORA_EXCHANGE_TCP_HOST", "0.0.0.0");
    }

    private static Map<String, Object> probe(String path) {
        return Map.of("path", path, "port", "management");
    }

    private static Map<String, Integer> ports(Map<String, Object> container) {
        Map<String, Integer> ports = new LinkedHashMap<>();
        List<Map<String, Object>> list = cast(container.get("ports"));
        for (Map<String, Object> port : list) ports.put((String) port.get("name"), (Integer) port.get("containerPort"));
        return ports;
    }

    /** Plain values of the container and of the ConfigMaps it imports (envFrom); Secrets' values stay unknown. */
    private Map<String, String> environment(Map<String, Object> container) {
        Map<String, String> environment = new LinkedHashMap<>();
        List<Map<String, Object>> from = cast(container.getOrDefault("envFrom", List.of()));
        for (Map<String, Object> source : from) {
            Object configMap = at(source, "configMapRef", "name");
            if (configMap != null) environment.putAll(manifests.configMap((String) configMap));
        }
        List<Map<String, Object>> env = cast(container.getOrDefault("env", List.of()));
        for (Map<String, Object> variable : env) {
            Object value = variable.get("value");
            environment.put((String) variable.get("name"), value == null ? null : value.toString());
        }
        return environment;
    }
}
