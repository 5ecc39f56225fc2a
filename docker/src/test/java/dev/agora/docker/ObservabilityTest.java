package dev.agora.docker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Prometheus scrapes what compose runs; Grafana's data source and dashboard are provisioned and consistent. */
class ObservabilityTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final ComposeFile compose = DockerDirectory.compose();

    private static Map<String, Object> prometheus() {
        return ObservabilityRules.parseYaml(DockerDirectory.read("prometheus/prometheus.yml"));
    }

    private static JsonNode dashboard() {
        return JSON.readTree(DockerDirectory.read("grafana/dashboards/agora-overview.json"));
    }

    private static Map<String, Object> datasource() {
        var datasources = (List<?>)
                ObservabilityRules.parseYaml(DockerDirectory.read("grafana/provisioning/datasources/prometheus.yaml"))
                        .get("datasources");
        assertThat(datasources).hasSize(1);
        return ComposeFile.asMap(datasources.getFirst());
    }

    @Test
    void prometheusScrapesEveryInstanceComposeRuns() {
        assertThat(ObservabilityRules.scrapeTargetViolations(compose, prometheus()))
                .isEmpty();
        assertThat(ObservabilityRules.scrapeTargets(prometheus())).containsEntry("edge", Set.of("edge:8404"));
    }

    @Test
    void prometheusConfigurationIsMountedWhereThePrometheusCommandReadsIt() {
        assertThat(compose.service("prometheus").volumes())
                .contains("./prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro");
        assertThat(String.valueOf(compose.service("prometheus").definition().get("command")))
                .contains("--config.file=/etc/prometheus/prometheus.yml");
    }

    @Test
    void aMissingOrStrayScrapeTargetIsReported() {
        Map<String, Object> prometheus = prometheus();
        for (Object job : (List<?>) prometheus.get("scrape_configs")) {
            Map<String, Object> config = ComposeFile.asMap(job);
            if (config.get("job_name").equals("order-service"))
                config.put("static_configs", List.of(Map.of("targets", List.of("order-1:8280", "order-3:9000"))));
            if (config.get("job_name").equals("exchange-service")) config.put("metrics_path", "/metrics");
        }

        assertThat(ObservabilityRules.scrapeTargetViolations(compose, prometheus))
                .containsExactlyInAnyOrder(
                        // order-1's service port, which serves no metrics once actuator has a port of its own
                        "scrape job order-service targets [order-1:8280, order-3:9000] but compose runs"
                                + " [order-1:9000, order-2:9000]",
                        "scrape job exchange-service does not scrape /actuator/prometheus",
                        "scrape job order-service targets order-3, which compose does not run",
                        "order-2 is not scraped");
    }

    @Test
    void aReplicaAddedToComposeButNotToPrometheusIsReported() {
        var services = ComposeFile.asMap(compose.root().get("services"));
        services.put("catalog-3", Interpolation.resolveTree(services.get("catalog-2"), Map.of()));

        assertThat(ObservabilityRules.scrapeTargetViolations(compose, prometheus()))
                .contains("catalog-3 is not scraped");
    }

    @Test
    void grafanaReadsPrometheusThroughTheProvisionedDataSource() {
        Map<String, Object> datasource = datasource();
        assertThat(datasource).containsEntry("type", "prometheus").containsEntry("url", "http://prometheus:9090");
        assertThat(compose.service("prometheus").ports())
                .anyMatch(port -> String.valueOf(port).endsWith(":9090"));
        assertThat(ObservabilityRules.dashboardViolations(dashboard(), String.valueOf(datasource.get("uid"))))
                .isEmpty();
    }

    @Test
    void grafanaLoadsTheCommittedDashboardsFromWhereComposeMountsThem() {
        var providers = (List<?>)
                ObservabilityRules.parseYaml(DockerDirectory.read("grafana/provisioning/dashboards/agora.yaml"))
                        .get("providers");
        Object path = ComposeFile.path(providers.getFirst(), "options", "path");
        assertThat(compose.service("grafana").volumes())
                .contains(
                        "./grafana/dashboards:" + path + ":ro", "./grafana/provisioning:/etc/grafana/provisioning:ro");
        assertThat(compose.service("grafana").environment())
                .containsEntry("GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH", path + "/agora-overview.json");
        assertThat(dashboard().path("uid").asString()).isEqualTo("agora-overview");
    }

    @Test
    void aDashboardMissingAMetricOrUsingAnotherDataSourceIsReported() {
        JsonNode dashboard = dashboard();
        ArrayNode panels = (ArrayNode) dashboard.path("panels");
        for (int i = panels.size() - 1; i >= 0; i--) {
            if (panels.get(i).path("title").asString().startsWith("Exchange")) panels.remove(i);
        }
        ((ObjectNode) panels.get(1).path("datasource")).put("uid", "someone-elses-prometheus");

        assertThat(ObservabilityRules.dashboardViolations(dashboard, "agora-prometheus"))
                .contains(
                        "panel '" + panels.get(1).path("title").asString()
                                + "' does not use data source agora-prometheus",
                        "the dashboard does not chart agora_exchange_commands_total",
                        "the dashboard does not chart agora_exchange_batch_commit_seconds");
    }

    private static Map<String, Object> collector() {
        return ObservabilityRules.parseYaml(DockerDirectory.read("otel-collector/config.yaml"));
    }

    private static Map<String, Object> jaegerDatasource() {
        var datasources = (List<?>)
                ObservabilityRules.parseYaml(DockerDirectory.read("grafana/provisioning/datasources/jaeger.yaml"))
                        .get("datasources");
        return ComposeFile.asMap(datasources.getFirst());
    }

    @Test
    void everyServiceSendsItsTracesToTheCollectorWhichFillsTheJaegerGrafanaReads() {
        assertThat(ObservabilityRules.tracingViolations(compose, collector(), jaegerDatasource()))
                .isEmpty();
        assertThat(compose.service("otel-collector").volumes())
                .contains("./otel-collector/config.yaml:/etc/otelcol/config.yaml:ro");
        assertThat(compose.service("grafana").dependsOn()).containsKey("jaeger");
    }

    @Test
    void aServiceSendingItsTracesElsewhereAndACollectorWithoutJaegerAreReported() {
        var order = ComposeFile.asMap(
                ComposeFile.asMap(compose.root().get("services")).get("order-1"));
        ComposeFile.asMap(order.get("environment"))
                .put("MANAGEMENT_OPENTELEMETRY_TRACING_EXPORT_OTLP_ENDPOINT", "http://otel-collector:4317/v1/traces");
        Map<String, Object> collector = collector();
        ComposeFile.asMap(ComposeFile.asMap(collector.get("exporters")).get("otlp/jaeger"))
                .put("endpoint", "tempo:4317");

        assertThat(ObservabilityRules.tracingViolations(compose, collector, jaegerDatasource()))
                .containsExactlyInAnyOrder(
                        "order-1 sends its traces to 'http://otel-collector:4317/v1/traces', not to the collector's"
                                + " OTLP/HTTP receiver (port 4318, /v1/traces)",
                        "the collector's trace pipeline does not export to jaeger:4317");
    }
}
