package dev.agora.docker;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * A compose file as compose sees it: YAML anchors and merge keys expanded, variables substituted. The tree
 * is mutable and unshared, so a test can break one detail and see a check catch it.
 */
record ComposeFile(Map<String, Object> root) {

    private static final Pattern SERVICE_DOCKERFILE = Pattern.compile("docker/([a-z-]+)\\.Dockerfile");

    static ComposeFile parse(String yaml, Map<String, String> variables) {
        Object tree = new Yaml(new SafeConstructor(new LoaderOptions())).load(yaml);
        return new ComposeFile(asMap(Interpolation.resolveTree(tree, variables)));
    }

    /** The file as written: variables left as ${...} (to check where values come from). */
    static ComposeFile parseUninterpolated(String yaml) {
        Object tree = new Yaml(new SafeConstructor(new LoaderOptions())).load(yaml);
        return new ComposeFile(asMap(Interpolation.resolveTree(tree, null)));
    }

    Map<String, Service> services() {
        Map<String, Service> services = new LinkedHashMap<>();
        asMap(root.get("services"))
                .forEach((name, definition) -> services.put(name, new Service(name, asMap(definition))));
        return services;
    }

    Service service(String name) {
        Service service = services().get(name);
        if (service == null) throw new IllegalArgumentException("No service " + name);
        return service;
    }

    /** The replicas of one of the Agora services, identified by the Dockerfile they are built from. */
    List<Service> replicasOf(String serviceId) {
        return services().values().stream()
                .filter(service -> service.serviceId().filter(serviceId::equals).isPresent())
                .toList();
    }

    record Service(String name, Map<String, Object> definition) {

        /** The Agora service id when this service is built from one of docker/&lt;id&gt;.Dockerfile. */
        Optional<String> serviceId() {
            if (!(definition.get("build") instanceof Map<?, ?> build)) return Optional.empty();
            Matcher matcher = SERVICE_DOCKERFILE.matcher(String.valueOf(build.get("dockerfile")));
            return matcher.matches() ? Optional.of(matcher.group(1)) : Optional.empty();
        }

        Map<String, String> environment() {
            Map<String, String> environment = new LinkedHashMap<>();
            Object value = definition.get("environment");
            if (value instanceof Map<?, ?> map) {
                map.forEach((key, entry) ->
                        environment.put(String.valueOf(key), entry == null ? "" : String.valueOf(entry)));
            } else if (value instanceof List<?> list) {
                for (Object item : list) {
                    String line = String.valueOf(item);
                    int equals = line.indexOf('=');
                    if (equals < 0) environment.put(line, "");
                    else environment.put(line.substring(0, equals), line.substring(equals + 1));
                }
            }
            return environment;
        }

        /** The HTTP port this service listens on inside its container ({@code PORT}), when it sets one. */
        Optional<Integer> port() {
            return Optional.ofNullable(environment().get("PORT")).map(Integer::valueOf);
        }

        /**
         * The port actuator answers on inside the container ({@code MANAGEMENT_SERVER_PORT}), when it has one of its
         * own.
         */
        Optional<Integer> managementPort() {
            return Optional.ofNullable(environment().get("MANAGEMENT_SERVER_PORT"))
                    .map(Integer::valueOf);
        }

        Map<String, Object> healthcheck() {
            return definition.get("healthcheck") instanceof Map<?, ?> map ? asMap(map) : Map.of();
        }

        Optional<String> memoryLimit() {
            if (definition.get("mem_limit") != null) return Optional.of(String.valueOf(definition.get("mem_limit")));
            Object limit = path(definition, "deploy", "resources", "limits", "memory");
            return Optional.ofNullable(limit).map(String::valueOf);
        }

        /** depends_on as service name to condition; the short (list) form means service_started. */
        Map<String, String> dependsOn() {
            Map<String, String> conditions = new LinkedHashMap<>();
            Object value = definition.get("depends_on");
            if (value instanceof List<?> list) {
                list.forEach(name -> conditions.put(String.valueOf(name), "service_started"));
            } else if (value instanceof Map<?, ?> map) {
                map.forEach((name, options) -> conditions.put(
                        String.valueOf(name),
                        options instanceof Map<?, ?> o && o.get("condition") != null
                                ? String.valueOf(o.get("condition"))
                                : "service_started"));
            }
            return conditions;
        }

        List<Object> ports() {
            return definition.get("ports") instanceof List<?> list ? List.copyOf(list) : List.of();
        }

        List<String> volumes() {
            return definition.get("volumes") instanceof List<?> list
                    ? list.stream().map(String::valueOf).toList()
                    : List.of();
        }

        Optional<String> image() {
            return Optional.ofNullable(definition.get("image")).map(String::valueOf);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> asMap(Object node) {
        if (node instanceof Map<?, ?> map) return (Map<String, Object>) map;
        throw new IllegalArgumentException("Expected a mapping, found " + node);
    }

    static Object path(Object node, String... keys) {
        Object current = node;
        for (String key : keys) {
            if (!(current instanceof Map<?, ?> map)) return null;
            current = map.get(key);
        }
        return current;
    }
}
