package dev.agora.docker;

import dev.agora.docker.ComposeFile.Service;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import tools.jackson.databind.JsonNode;

/**
 * Prometheus must scrape every instance compose runs; Grafana must show the metrics the services publish; every service
 * sends its traces to the collector, which passes them on to the Jaeger that Grafana reads.
 */
final class ObservabilityRules {

    /** Metrics the dashboard must chart (the exchange ones are the exchange-service's own timer and counter). */
    static final List<String> DASHBOARD_METRICS = List.of(
            "http_server_requests_seconds_count",
            "http_server_requests_seconds_bucket",
            "cache_gets_total{result=\"hit\"}",
            "up",
            "agora_client_failovers_total",
            "agora_orders_outcomes_backlog",
            "agora_orders_outcomes_inline_total",
            "agora_orders_outcomes_failed_total",
            "agora_orders_recovered_total",
            "agora_exchange_commands_total",
            "agora_exchange_batch_commit_seconds");

    private ObservabilityRules() {}

    static Map<String, Object> parseYaml(String yaml) {
        return ComposeFile.asMap(new Yaml(new SafeConstructor(new LoaderOptions())).load(yaml));
    }

    /** Scrape targets (host:port) by job name. */
    static Map<String, Set<String>> scrapeTargets(Map<String, Object> prometheus) {
        Map<String, Set<String>> targets = new LinkedHashMap<>();
        for (Object job : (List<?>) prometheus.get("scrape_configs")) {
            Map<String, Object> config = ComposeFile.asMap(job);
            Set<String> jobTargets =
                    targets.computeIfAbsent(String.valueOf(config.get("job_name")), key -> new TreeSet<>());
            Object staticConfigs = config.get("static_configs");
            if (staticConfigs instanceof List<?> list) {
                for (Object staticConfig : list) {
                    Object listed = ComposeFile.asMap(staticConfig).get("targets");
                    if (listed instanceof List<?> hosts) hosts.forEach(host -> jobTargets.add(String.valueOf(host)));
                }
            }
        }
        return targets;
    }

    /**
     * One job per Agora service, named by its service id, scraping /actuator/prometheus on exactly its
     * replicas at their management port (MANAGEMENT_SERVER_PORT, else PORT); every other target is a compose
     * service too.
     */
    static List<String> scrapeTargetViolations(ComposeFile compose, Map<String, Object> prometheus) {
        List<String> violations = new ArrayList<>();
        Map<String, Set<String>> targets = scrapeTargets(prometheus);
        Map<String, String> metricsPaths = new LinkedHashMap<>();
        for (Object job : (List<?>) prometheus.get("scrape_configs")) {
            Map<String, Object> config = ComposeFile.asMap(job);
            metricsPaths.put(String.valueOf(config.get("job_name")), String.valueOf(config.get("metrics_path")));
        }
        for (String serviceId : DockerDirectory.SERVICE_IDS) {
            Set<String> expected = compose.replicasOf(serviceId).stream()
                    .map(replica -> replica.name() + ":"
                            + replica.managementPort()
                                    .or(replica::port)
                                    .map(String::valueOf)
                                    .orElse("?"))
                    .collect(Collectors.toCollection(TreeSet::new));
            Set<String> actual = targets.get(serviceId);
            if (actual == null) {
                violations.add("no scrape job " + serviceId);
                continue;
            }
            if (!actual.equals(expected))
                violations.add("scrape job " + serviceId + " targets " + actual + " but compose runs " + expected);
            if (!"/actuator/prometheus".equals(metricsPaths.get(serviceId)))
                violations.add("scrape job " + serviceId + " does not scrape /actuator/prometheus");
        }
        Set<String> services = compose.services().keySet();
        targets.forEach((job, hosts) -> hosts.stream()
                .map(target -> target.split(":")[0])
                .filter(host -> !host.equals("localhost") && !services.contains(host))
                .forEach(host ->
                        violations.add("scrape job " + job + " targets " + host + ", which compose does not run")));
        List<String> unscraped = compose.services().values().stream()
                .filter(service -> service.serviceId().isPresent())
                .map(Service::name)
                .filter(name -> targets.values().stream()
                        .flatMap(Set::stream)
                        .noneMatch(target -> target.startsWith(name + ":")))
                .toList();
        unscraped.forEach(name -> violations.add(name + " is not scraped"));
        return violations;
    }

    /** Every panel and query uses the provisioned data source, and the dashboard charts every required metric. */
    static List<String> dashboardViolations(JsonNode dashboard, String datasourceUid) {
        List<String> violations = new ArrayList<>();
        StringBuilder queries = new StringBuilder();
        for (JsonNode panel : dashboard.path("panels")) {
            if (panel.path("type").asString().equals("row")) continue;
            String title = panel.path("title").asString();
            if (!panel.path("datasource").path("uid").asString().equals(datasourceUid))
                violations.add("panel '" + title + "' does not use data source " + datasourceUid);
            if (panel.path("targets").isEmpty()) violations.add("panel '" + title + "' has no query");
            for (JsonNode target : panel.path("targets")) {
                String expr = target.path("expr").asString();
                if (expr.isBlank()) violations.add("panel '" + title + "' has an empty query");
                if (target.has("datasource")
                        && !target.path("datasource").path("uid").asString().equals(datasourceUid))
                    violations.add("a query of panel '" + title + "' does not use data source " + datasourceUid);
                queries.append(expr).append('\n');
            }
        }
        for (String metric : DASHBOARD_METRICS) {
            boolean charted = metric.equals("up")
                    ? queries.toString().lines().anyMatch(line -> line.strip().equals("up"))
                    : queries.indexOf(metric) >= 0;
            if (!charted) violations.add("the dashboard does not chart " + metric);
        }
        return violations;
    }

    /**
     * Every Agora service has tracing switched on by Spring Boot's own properties and sends its spans over OTLP/HTTP to
     * the collector compose runs, on the port its OTLP/HTTP receiver listens on; the collector's trace pipeline exports
     * to the Jaeger compose runs, on its OTLP/gRPC port; Grafana reads that Jaeger.
     */
    static List<String> tracingViolations(
            ComposeFile compose, Map<String, Object> collector, Map<String, Object> grafanaDatasource) {
        List<String> violations = new ArrayList<>();
        Object httpEndpoint = ComposeFile.path(collector, "receivers", "otlp", "protocols", "http", "endpoint");
        String receiverPort = String.valueOf(httpEndpoint).replaceAll(".*:", "");
        for (Service service : compose.services().values()) {
            if (service.serviceId().isEmpty()) continue;
            Map<String, String> environment = service.environment();
            if (environment
                    .getOrDefault("MANAGEMENT_TRACING_EXPORT_ENABLED", "")
                    .isBlank()) violations.add(service.name() + " does not set MANAGEMENT_TRACING_EXPORT_ENABLED");
            if (environment
                    .getOrDefault("MANAGEMENT_TRACING_SAMPLING_PROBABILITY", "")
                    .isBlank())
                violations.add(service.name() + " does not set MANAGEMENT_TRACING_SAMPLING_PROBABILITY");
            String endpoint = environment.getOrDefault("MANAGEMENT_OPENTELEMETRY_TRACING_EXPORT_OTLP_ENDPOINT", "");
            java.net.URI uri = endpoint.isBlank() ? null : java.net.URI.create(endpoint);
            boolean toCollector = uri != null
                    && compose.services().containsKey(uri.getHost())
                    && compose.service(uri.getHost())
                            .image()
                            .filter(image -> image.startsWith("otel/opentelemetry-collector"))
                            .isPresent()
                    && String.valueOf(uri.getPort()).equals(receiverPort)
                    && "/v1/traces".equals(uri.getPath());
            if (!toCollector)
                violations.add(service.name() + " sends its traces to '" + endpoint
                        + "', not to the collector's OTLP/HTTP receiver (port " + receiverPort + ", /v1/traces)");
        }
        Object exporters = ComposeFile.path(collector, "service", "pipelines", "traces", "exporters");
        Map<String, Object> definedExporters = ComposeFile.asMap(collector.get("exporters"));
        boolean toJaeger = exporters instanceof List<?> list
                && list.stream().anyMatch(id -> String.valueOf(
                                ComposeFile.path(definedExporters, String.valueOf(id), "endpoint"))
                        .equals("jaeger:4317"));
        if (!toJaeger) violations.add("the collector's trace pipeline does not export to jaeger:4317");
        if (!compose.services().containsKey("jaeger")) violations.add("compose runs no jaeger");
        if (!"jaeger".equals(grafanaDatasource.get("type"))
                || !"http://jaeger:16686".equals(grafanaDatasource.get("url")))
            violations.add("Grafana has no data source for the Jaeger compose runs");
        return violations;
    }
}
