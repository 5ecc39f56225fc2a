package dev.agora.docker;

import dev.agora.docker.ComposeFile.Service;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The rules the compose cluster must keep. Each returns the violations it finds, described for a human
 * (empty when the file is right), so a test can show every problem at once and a mutated copy can prove
 * that a rule really catches its mistake.
 */
final class ComposeRules {

    /** The replicas the design names, with the service each one runs. */
    static final Map<String, String> REPLICAS = orderedMap(
            "catalog-1", "catalog-service",
            "catalog-2", "catalog-service",
            "order-1", "order-service",
            "order-2", "order-service",
            "frontend-1", "frontend-service",
            "frontend-2", "frontend-service",
            "exchange-1", "exchange-service",
            "exchange-2", "exchange-service");

    /** The infrastructure services, with the image repository each must run. */
    static final Map<String, String> INFRASTRUCTURE = orderedMap(
            "postgres", "postgres",
            "edge", "haproxy",
            "prometheus", "prom/prometheus",
            "grafana", "grafana/grafana",
            "otel-collector", "otel/opentelemetry-collector",
            "jaeger", "jaegertracing/jaeger");

    /** The replica-list variables and the service whose replicas each lists. */
    static final Map<String, String> INSTANCE_LISTS = orderedMap(
            "CATALOG_INSTANCES", "catalog-service",
            "ORDER_INSTANCES", "order-service",
            "FRONTEND_INSTANCES", "frontend-service",
            "EXCHANGE_INSTANCES", "exchange-service");

    /** Which replica lists each service needs to find the services it calls (or pushes to). */
    static final Map<String, Set<String>> NEEDED_INSTANCE_LISTS = Map.of(
            "catalog-service", Set.of("FRONTEND_INSTANCES"),
            "order-service", Set.of("CATALOG_INSTANCES"),
            "frontend-service", Set.of("CATALOG_INSTANCES", "ORDER_INSTANCES", "EXCHANGE_INSTANCES"),
            "exchange-service", Set.of());

    /** The services with a database of their own (the frontend's holds users, clients and keys). */
    static final Set<String> SERVICES_WITH_DATABASE =
            Set.of("catalog-service", "order-service", "exchange-service", "frontend-service");

    /** The secrets each service needs, beyond its database password. */
    static final Map<String, List<String>> REQUIRED_SECRETS = Map.of(
            "catalog-service", List.of("AGORA_SECURITY_CLIENT_SECRET"),
            "order-service", List.of("AGORA_SECURITY_CLIENT_SECRET"),
            "exchange-service", List.of(),
            "frontend-service",
                    List.of(
                            "AGORA_IDENTITY_SIGNING_KEY",
                            "AGORA_IDENTITY_SERVICE_CLIENTS_CATALOG_SERVICE",
                            "AGORA_IDENTITY_SERVICE_CLIENTS_ORDER_SERVICE"));

    /** The resource servers: they fetch the frontends' keys and their own tokens from AGORA_SECURITY_AUTHORITIES. */
    static final Set<String> RESOURCE_SERVERS = Set.of("catalog-service", "order-service", "exchange-service");

    /** The shared tokens the services no longer know; compose must not hand them out any more. */
    static final List<String> RETIRED_VARIABLES = List.of("AGORA_INTERNAL_TOKEN", "AGORA_ADMIN_TOKEN");

    /** Which frontend variable holds the client secret a service presents as its AGORA_SECURITY_CLIENT_SECRET. */
    static final Map<String, String> CLIENT_SECRET_AT_FRONTEND = Map.of(
            "catalog-service", "AGORA_IDENTITY_SERVICE_CLIENTS_CATALOG_SERVICE",
            "order-service", "AGORA_IDENTITY_SERVICE_CLIENTS_ORDER_SERVICE");

    private static final Pattern MEMORY = Pattern.compile("\\d+[bkmg]?", Pattern.CASE_INSENSITIVE);
    private static final Pattern JDBC_URL = Pattern.compile("jdbc:postgresql://([^:/]+):(\\d+)/([A-Za-z_][\\w]*)");
    /** A call of postgres/init-databases.sh: database, owner role, variable holding the owner's password. */
    private static final Pattern CREATE_DATABASE =
            Pattern.compile("(?m)^create_service_database\\s+([A-Za-z_]\\w*)\\s+([A-Za-z_]\\w*)\\s+([A-Z_]+)\\s*$");

    private ComposeRules() {}

    static List<String> missingServices(ComposeFile compose) {
        List<String> violations = new ArrayList<>();
        Map<String, Service> services = compose.services();
        REPLICAS.forEach((name, serviceId) -> {
            Service service = services.get(name);
            if (service == null) violations.add("no service " + name + " (a replica of " + serviceId + ")");
            else if (!service.serviceId().equals(Optional.of(serviceId)))
                violations.add(name + " is not built from docker/" + serviceId + ".Dockerfile");
        });
        INFRASTRUCTURE.forEach((name, repository) -> {
            Service service = services.get(name);
            if (service == null) violations.add("no service " + name);
            else if (service.image()
                    .filter(image -> image.startsWith(repository + ":"))
                    .isEmpty()) violations.add(name + " does not run a tagged " + repository + " image");
        });
        return violations;
    }

    static List<String> healthcheckViolations(ComposeFile compose) {
        List<String> violations = new ArrayList<>();
        for (Service service : compose.services().values()) {
            Map<String, Object> healthcheck = service.healthcheck();
            Object test = healthcheck.get("test");
            boolean disabled = Boolean.TRUE.equals(healthcheck.get("disable"))
                    || (test instanceof List<?> list && !list.isEmpty() && "NONE".equals(list.getFirst()));
            boolean empty = test == null
                    || (test instanceof List<?> list && list.size() < 2)
                    || String.valueOf(test).isBlank();
            if (disabled || empty) violations.add(service.name() + " has no health check");
        }
        return violations;
    }

    static List<String> memoryLimitViolations(ComposeFile compose) {
        List<String> violations = new ArrayList<>();
        for (Service service : compose.services().values()) {
            Optional<String> limit = service.memoryLimit();
            if (limit.isEmpty()) violations.add(service.name() + " has no memory limit");
            else if (!MEMORY.matcher(limit.get()).matches())
                violations.add(service.name() + " has an unreadable memory limit: " + limit.get());
        }
        return violations;
    }

    /**
     * Every replica list names exactly the replicas of its service, each at the port that replica listens
     * on, and every service gets the lists it needs.
     */
    static List<String> instanceListViolations(ComposeFile compose) {
        List<String> violations = new ArrayList<>();
        Map<String, Service> services = compose.services();
        for (Service service : services.values()) {
            Map<String, String> environment = service.environment();
            service.serviceId().ifPresent(id -> NEEDED_INSTANCE_LISTS.get(id).stream()
                    .filter(variable -> !environment.containsKey(variable))
                    .forEach(variable -> violations.add(service.name() + " lacks " + variable)));
            INSTANCE_LISTS.forEach((variable, listedId) -> {
                String list = environment.get(variable);
                if (list == null) return;
                Set<String> listedHosts = new TreeSet<>();
                for (String url : list.split(",")) {
                    String where = service.name() + " " + variable + " entry '" + url.strip() + "'";
                    URI uri;
                    try {
                        uri = URI.create(url.strip());
                    } catch (IllegalArgumentException e) {
                        violations.add(where + " is not a URL");
                        continue;
                    }
                    if (!"http".equals(uri.getScheme()) || uri.getHost() == null) {
                        violations.add(where + " is not an http://host:port URL");
                        continue;
                    }
                    listedHosts.add(uri.getHost());
                    Service target = services.get(uri.getHost());
                    if (target == null) {
                        violations.add(where + " names no service of this file");
                    } else if (!target.serviceId().equals(Optional.of(listedId))) {
                        violations.add(where + " is not a replica of " + listedId);
                    } else if (!target.port().equals(Optional.of(uri.getPort()))) {
                        violations.add(where + " does not use " + target.name() + "'s PORT "
                                + target.port().map(String::valueOf).orElse("(unset)"));
                    }
                }
                Set<String> replicas = compose.replicasOf(listedId).stream()
                        .map(Service::name)
                        .collect(Collectors.toCollection(TreeSet::new));
                if (!listedHosts.equals(replicas))
                    violations.add(service.name() + " " + variable + " lists " + listedHosts + " but the replicas of "
                            + listedId + " are " + replicas);
            });
        }
        return violations;
    }

    /** The configuration every service needs from its environment. */
    static List<String> environmentViolations(ComposeFile compose) {
        List<String> violations = new ArrayList<>();
        for (Service service : compose.services().values()) {
            if (service.serviceId().isEmpty()) continue;
            String id = service.serviceId().get();
            List<String> required = new ArrayList<>(List.of("PORT", "SPRING_PROFILES_ACTIVE"));
            if (SERVICES_WITH_DATABASE.contains(id))
                required.addAll(List.of("DATABASE_URL", "DATABASE_USERNAME", "DATABASE_PASSWORD"));
            required.addAll(REQUIRED_SECRETS.get(id));
            if (RESOURCE_SERVERS.contains(id)) required.add("AGORA_SECURITY_AUTHORITIES");
            if (id.equals("exchange-service")) required.add("AGORA_EXCHANGE_TCP_PORT");
            required.add("MANAGEMENT_SERVER_PORT");
            Map<String, String> environment = service.environment();
            if (service.managementPort().isPresent() && service.managementPort().equals(service.port()))
                violations.add(service.name() + " serves actuator on its service port "
                        + service.port().get());
            required.stream()
                    .filter(variable -> environment.getOrDefault(variable, "").isBlank())
                    .forEach(variable -> violations.add(service.name() + " lacks " + variable));
            String profiles = environment.getOrDefault("SPRING_PROFILES_ACTIVE", "");
            if (List.of(profiles.split(",")).stream().map(String::strip).anyMatch("local"::equals))
                violations.add(service.name() + " runs the local profile, which accepts dev secrets");
            RETIRED_VARIABLES.stream()
                    .filter(environment::containsKey)
                    .forEach(variable -> violations.add(service.name() + " still sets the retired " + variable));
            if (RESOURCE_SERVERS.contains(id) && environment.containsKey("AGORA_SECURITY_AUTHORITIES")) {
                Set<String> authorities =
                        Set.of(environment.get("AGORA_SECURITY_AUTHORITIES").split(","));
                Set<String> frontends = compose.replicasOf("frontend-service").stream()
                        .map(frontend -> "http://" + frontend.name() + ":"
                                + frontend.port().orElse(-1))
                        .collect(Collectors.toSet());
                if (!authorities.equals(frontends))
                    violations.add(service.name() + " AGORA_SECURITY_AUTHORITIES names " + new TreeSet<>(authorities)
                            + " but the frontends are " + new TreeSet<>(frontends));
            }
            if (id.equals("exchange-service") && !"0.0.0.0".equals(environment.get("AGORA_EXCHANGE_TCP_HOST")))
                violations.add(service.name() + " binds its XML protocol to "
                        + environment.getOrDefault("AGORA_EXCHANGE_TCP_HOST", "loopback (the default)")
                        + ", out of the other containers' reach");
        }
        return violations;
    }

    /** The files an exchange's XML TLS bundle needs, as the variables that name them (after the bundle's name). */
    static final Map<String, String> XML_TLS_FILES = orderedMap(
            "KEYSTORE_CERTIFICATE", "the server's certificate",
            "KEYSTORE_PRIVATEKEY", "the server's private key",
            "TRUSTSTORE_CERTIFICATE", "the clients' CA (trust store)");

    /**
     * The exchange's XML protocol leaves its container, and the seed's protocol carries no credentials: every exchange
     * speaks it over TLS with client certificates, from a PEM SSL bundle whose three files lie in a read-only mount.
     */
    static List<String> xmlTlsViolations(ComposeFile compose) {
        List<String> violations = new ArrayList<>();
        for (Service exchange : compose.replicasOf("exchange-service")) {
            Map<String, String> environment = exchange.environment();
            String bundle = environment.getOrDefault("AGORA_EXCHANGE_TLS_BUNDLE", "");
            if (bundle.isBlank()) {
                violations.add(exchange.name() + " serves the XML protocol without TLS (no AGORA_EXCHANGE_TLS_BUNDLE)");
                continue;
            }
            if (!bundle.matches("[a-z0-9]+")) {
                violations.add(exchange.name() + " names the TLS bundle '" + bundle
                        + "', which environment variables cannot describe (lower-case letters and digits only)");
                continue;
            }
            List<String> readOnlyMounts = exchange.volumes().stream()
                    .filter(volume -> volume.endsWith(":ro"))
                    .map(volume -> volume.split(":")[1] + "/")
                    .toList();
            XML_TLS_FILES.forEach((suffix, what) -> {
                String variable = "SPRING_SSL_BUNDLE_PEM_" + bundle.toUpperCase(java.util.Locale.ROOT) + "_" + suffix;
                String value = environment.getOrDefault(variable, "");
                if (value.isBlank()) {
                    violations.add(
                            exchange.name() + "'s TLS bundle " + bundle + " lacks " + what + " (" + variable + ")");
                } else if (!value.startsWith("file:")
                        || readOnlyMounts.stream().noneMatch(value.substring("file:".length())::startsWith)) {
                    violations.add(exchange.name() + " reads " + what + " from " + value
                            + ", which is not a file in a read-only mount");
                }
            });
        }
        return violations;
    }

    /**
     * The service clients agree: catalog and order present the secrets every frontend registers for them, and
     * every Agora service agrees on the token issuer.
     */
    static List<String> clientSecretViolations(ComposeFile compose) {
        List<String> violations = new ArrayList<>();
        List<Service> frontends = compose.replicasOf("frontend-service");
        CLIENT_SECRET_AT_FRONTEND.forEach((serviceId, frontendVariable) -> {
            for (Service service : compose.replicasOf(serviceId)) {
                String secret = service.environment().get("AGORA_SECURITY_CLIENT_SECRET");
                for (Service frontend : frontends) {
                    if (secret == null || !secret.equals(frontend.environment().get(frontendVariable)))
                        violations.add(service.name() + " AGORA_SECURITY_CLIENT_SECRET differs from " + frontend.name()
                                + " " + frontendVariable);
                }
            }
        });
        Set<String> issuers = compose.services().values().stream()
                .filter(service -> service.serviceId().isPresent())
                .map(service -> service.environment().getOrDefault("AGORA_SECURITY_ISSUER", "(default)"))
                .collect(Collectors.toCollection(TreeSet::new));
        if (issuers.size() > 1) violations.add("the services disagree on AGORA_SECURITY_ISSUER: " + issuers);
        return violations;
    }

    /**
     * Every service with a database points at the compose PostgreSQL and a database its init script creates,
     * and logs in as the role that owns that database (never the superuser) with the password the init script
     * gave that role; replicas of one service share a database and different services never do.
     */
    static List<String> databaseViolations(ComposeFile compose, String initScript) {
        List<String> violations = new ArrayList<>();
        record Created(String owner, String passwordVariable) {}
        Map<String, Created> created = new HashMap<>();
        CREATE_DATABASE
                .matcher(initScript)
                .results()
                .forEach(match ->
                        created.put(match.group(1).toLowerCase(), new Created(match.group(2), match.group(3))));
        Map<String, String> databaseOfService = new HashMap<>();
        Map<String, String> serviceOfDatabase = new HashMap<>();
        for (Service service : compose.services().values()) {
            Optional<String> id = service.serviceId().filter(SERVICES_WITH_DATABASE::contains);
            if (id.isEmpty()) continue;
            Map<String, String> environment = service.environment();
            String url = environment.getOrDefault("DATABASE_URL", "");
            Matcher matcher = JDBC_URL.matcher(url);
            if (!matcher.matches()) {
                violations.add(service.name() + " DATABASE_URL '" + url + "' is not jdbc:postgresql://host:port/db");
                continue;
            }
            Service host = compose.services().get(matcher.group(1));
            if (host == null
                    || host.image()
                            .filter(image -> image.startsWith("postgres:"))
                            .isEmpty())
                violations.add(
                        service.name() + " DATABASE_URL host " + matcher.group(1) + " is not a postgres service");
            String database = matcher.group(3);
            Created creation = created.get(database.toLowerCase());
            if (creation == null) {
                violations.add(
                        service.name() + " uses database " + database + ", which the init script does not create");
            } else {
                String username = environment.getOrDefault("DATABASE_USERNAME", "");
                if (!username.equals(creation.owner()))
                    violations.add(service.name() + " logs in as '" + username + "', not as " + creation.owner()
                            + ", the owner of " + database);
                if (host != null) {
                    String password = host.environment().get(creation.passwordVariable());
                    if (password == null)
                        violations.add(host.name() + " lacks " + creation.passwordVariable() + ", the password of "
                                + creation.owner());
                    else if (!password.equals(environment.get("DATABASE_PASSWORD")))
                        violations.add(service.name() + " DATABASE_PASSWORD is not " + host.name() + "'s "
                                + creation.passwordVariable());
                }
            }
            if (host != null
                    && environment
                            .getOrDefault("DATABASE_USERNAME", "")
                            .equals(host.environment().getOrDefault("POSTGRES_USER", "postgres")))
                violations.add(service.name() + " logs in as the PostgreSQL superuser");
            String previous = databaseOfService.putIfAbsent(id.get(), database);
            if (previous != null && !previous.equals(database))
                violations.add("replicas of " + id.get() + " use different databases: " + previous + ", " + database);
            String owner = serviceOfDatabase.putIfAbsent(database, id.get());
            if (owner != null && !owner.equals(id.get()))
                violations.add("database " + database + " is shared by " + owner + " and " + id.get());
        }
        Set<String> owners = new HashSet<>();
        created.forEach((database, creation) -> {
            if (!owners.add(creation.owner()))
                violations.add("role " + creation.owner() + " owns more than one database");
        });
        return violations;
    }

    static List<String> publishedPortCollisions(ComposeFile compose) {
        Map<String, List<String>> publishers = new LinkedHashMap<>();
        for (Service service : compose.services().values()) {
            for (Object port : service.ports()) {
                publishedHostPort(port).ifPresent(hostPort -> publishers
                        .computeIfAbsent(hostPort, key -> new ArrayList<>())
                        .add(service.name()));
            }
        }
        List<String> violations = new ArrayList<>();
        publishers.forEach((hostPort, names) -> {
            if (names.size() > 1) violations.add("host port " + hostPort + " is published by " + names);
        });
        return violations;
    }

    /** The host side of a port mapping, with its protocol; empty when the host port is left to Docker. */
    static Optional<String> publishedHostPort(Object mapping) {
        if (mapping instanceof Map<?, ?> longForm) {
            Object published = longForm.get("published");
            Object protocol = longForm.get("protocol");
            return Optional.ofNullable(published).map(p -> p + "/" + (protocol == null ? "tcp" : protocol));
        }
        String text = String.valueOf(mapping);
        String protocol = "tcp";
        int slash = text.indexOf('/');
        if (slash >= 0) {
            protocol = text.substring(slash + 1);
            text = text.substring(0, slash);
        }
        String[] parts = text.split(":");
        return switch (parts.length) {
            case 2 -> Optional.of(parts[0] + "/" + protocol);
            case 3 -> Optional.of(parts[1] + "/" + protocol);
            default -> Optional.empty();
        };
    }

    /**
     * Startup order: every Agora service waits for a healthy PostgreSQL, frontends for healthy catalog and
     * order replicas, the edge for healthy frontends; every dependency waits for health, not mere start.
     */
    static List<String> dependencyViolations(ComposeFile compose) {
        List<String> violations = new ArrayList<>();
        Map<String, Service> services = compose.services();
        for (Service service : services.values()) {
            Map<String, String> dependsOn = service.dependsOn();
            dependsOn.forEach((name, condition) -> {
                if (!services.containsKey(name))
                    violations.add(service.name() + " depends on undefined service " + name);
                if (!condition.equals("service_healthy"))
                    violations.add(service.name() + " waits for " + name + " with " + condition
                            + " instead of service_healthy");
            });
            List<String> needed = new ArrayList<>();
            Optional<String> id = service.serviceId();
            if (id.isPresent()) needed.add("postgres");
            if (id.equals(Optional.of("frontend-service"))) {
                compose.replicasOf("catalog-service").forEach(replica -> needed.add(replica.name()));
                compose.replicasOf("order-service").forEach(replica -> needed.add(replica.name()));
            }
            if (service.name().equals("edge"))
                compose.replicasOf("frontend-service").forEach(replica -> needed.add(replica.name()));
            needed.stream()
                    .filter(name -> !dependsOn.containsKey(name))
                    .forEach(name -> violations.add(service.name() + " does not wait for " + name + " to be healthy"));
        }
        return violations;
    }

    /** Relative bind mounts point at files committed under docker/. */
    static List<String> bindMountViolations(ComposeFile compose, Path composeDirectory) {
        List<String> violations = new ArrayList<>();
        for (Service service : compose.services().values()) {
            for (String volume : service.volumes()) {
                String source = volume.split(":")[0];
                if (!source.startsWith(".")) continue;
                if (!Files.exists(composeDirectory.resolve(source).normalize()))
                    violations.add(service.name() + " mounts " + source + ", which does not exist");
            }
        }
        return violations;
    }

    private static Map<String, String> orderedMap(String... keysAndValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) map.put(keysAndValues[i], keysAndValues[i + 1]);
        return map;
    }
}
