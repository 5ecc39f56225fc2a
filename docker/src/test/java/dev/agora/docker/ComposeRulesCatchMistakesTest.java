package dev.agora.docker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Each compose rule, given a copy of the real file with one realistic mistake, reports that mistake. Without
 * these, a rule that can never fail would pass silently.
 */
class ComposeRulesCatchMistakesTest {

    private final ComposeFile compose = DockerDirectory.compose();

    private Map<String, Object> definition(String service) {
        return compose.service(service).definition();
    }

    private Map<String, Object> environment(String service) {
        return ComposeFile.asMap(definition(service).get("environment"));
    }

    @Test
    void aMissingReplicaIsReported() {
        ComposeFile.asMap(compose.root().get("services")).remove("catalog-2");

        assertThat(ComposeRules.missingServices(compose))
                .contains("no service catalog-2 (a replica of catalog-service)");
        // and every list still naming it now points nowhere
        assertThat(ComposeRules.instanceListViolations(compose))
                .anyMatch(violation -> violation.contains("'http://catalog-2:8180' names no service"));
    }

    @Test
    void aReplicaBuiltFromTheWrongDockerfileIsReported() {
        ComposeFile.asMap(definition("order-2").get("build")).put("dockerfile", "docker/catalog-service.Dockerfile");

        assertThat(ComposeRules.missingServices(compose))
                .contains("order-2 is not built from docker/order-service.Dockerfile");
    }

    @Test
    void aDifferentEdgeImageIsReported() {
        definition("edge").put("image", "nginx:1.29");

        assertThat(ComposeRules.missingServices(compose)).contains("edge does not run a tagged haproxy image");
    }

    @Test
    void aMissingOrDisabledHealthCheckIsReported() {
        definition("order-1").remove("healthcheck");
        definition("prometheus").put("healthcheck", Map.of("disable", true));
        definition("edge").put("healthcheck", Map.of("test", List.of("NONE")));

        assertThat(ComposeRules.healthcheckViolations(compose))
                .containsExactlyInAnyOrder(
                        "order-1 has no health check", "prometheus has no health check", "edge has no health check");
    }

    @Test
    void aMissingMemoryLimitIsReported() {
        definition("grafana").remove("mem_limit");
        definition("exchange-1").put("mem_limit", "lots");

        assertThat(ComposeRules.memoryLimitViolations(compose))
                .containsExactlyInAnyOrder(
                        "grafana has no memory limit", "exchange-1 has an unreadable memory limit: lots");
    }

    @Test
    void aMemoryLimitInDeployResourcesCounts() {
        definition("grafana").remove("mem_limit");
        definition("grafana").put("deploy", Map.of("resources", Map.of("limits", Map.of("memory", "256m"))));

        assertThat(ComposeRules.memoryLimitViolations(compose)).isEmpty();
    }

    @Test
    void aReplicaListNamingAnUndefinedHostIsReported() {
        environment("frontend-1").put("CATALOG_INSTANCES", "http://catalog-1:8180,http://catalog-3:8180");

        assertThat(ComposeRules.instanceListViolations(compose))
                .contains(
                        "frontend-1 CATALOG_INSTANCES entry 'http://catalog-3:8180' names no service of this file",
                        "frontend-1 CATALOG_INSTANCES lists [catalog-1, catalog-3] but the replicas of catalog-service"
                                + " are [catalog-1, catalog-2]");
    }

    @Test
    void aReplicaListWithTheWrongPortIsReported() {
        environment("order-2").put("CATALOG_INSTANCES", "http://catalog-1:8180,http://catalog-2:8181");

        assertThat(ComposeRules.instanceListViolations(compose))
                .containsExactly(
                        "order-2 CATALOG_INSTANCES entry 'http://catalog-2:8181' does not use catalog-2's PORT 8180");
    }

    @Test
    void aReplicaWhosePortChangedWithoutItsListsIsReported() {
        environment("catalog-2").put("PORT", "8181");

        assertThat(ComposeRules.instanceListViolations(compose))
                .isNotEmpty()
                .allMatch(violation -> violation.endsWith("does not use catalog-2's PORT 8181"));
    }

    @Test
    void aReplicaListMissingAReplicaIsReported() {
        environment("catalog-1").put("FRONTEND_INSTANCES", "http://frontend-1:8080");

        assertThat(ComposeRules.instanceListViolations(compose))
                .containsExactly("catalog-1 FRONTEND_INSTANCES lists [frontend-1] but the replicas of frontend-service"
                        + " are [frontend-1, frontend-2]");
    }

    @Test
    void aReplicaListNamingAnotherServicesReplicaIsReported() {
        environment("frontend-2").put("ORDER_INSTANCES", "http://order-1:8280,http://catalog-1:8180");

        assertThat(ComposeRules.instanceListViolations(compose))
                .contains("frontend-2 ORDER_INSTANCES entry 'http://catalog-1:8180' is not a replica of order-service");
    }

    @Test
    void aServiceLackingAListItNeedsIsReported() {
        environment("frontend-2").remove("EXCHANGE_INSTANCES");

        assertThat(ComposeRules.instanceListViolations(compose)).containsExactly("frontend-2 lacks EXCHANGE_INSTANCES");
    }

    @Test
    void missingConfigurationIsReported() {
        environment("exchange-1").remove("AGORA_SECURITY_AUTHORITIES");
        environment("order-1").remove("DATABASE_PASSWORD");
        environment("frontend-2").remove("AGORA_IDENTITY_SIGNING_KEY");
        environment("catalog-2").remove("AGORA_SECURITY_CLIENT_SECRET");
        environment("order-2").remove("MANAGEMENT_SERVER_PORT");

        assertThat(ComposeRules.environmentViolations(compose))
                .containsExactlyInAnyOrder(
                        "exchange-1 lacks AGORA_SECURITY_AUTHORITIES",
                        "order-1 lacks DATABASE_PASSWORD",
                        "frontend-2 lacks AGORA_IDENTITY_SIGNING_KEY",
                        "catalog-2 lacks AGORA_SECURITY_CLIENT_SECRET",
                        "order-2 lacks MANAGEMENT_SERVER_PORT");
    }

    @Test
    void anExchangeWithoutXmlTlsOrItsTrustStoreIsReported() {
        environment("exchange-1").remove("AGORA_EXCHANGE_TLS_BUNDLE");
        environment("exchange-2").remove("SPRING_SSL_BUNDLE_PEM_EXCHANGEXML_TRUSTSTORE_CERTIFICATE");
        environment("exchange-2").put("SPRING_SSL_BUNDLE_PEM_EXCHANGEXML_KEYSTORE_PRIVATEKEY", "file:/tmp/server.key");

        assertThat(ComposeRules.xmlTlsViolations(compose))
                .containsExactlyInAnyOrder(
                        "exchange-1 serves the XML protocol without TLS (no AGORA_EXCHANGE_TLS_BUNDLE)",
                        "exchange-2's TLS bundle exchangexml lacks the clients' CA (trust store)"
                                + " (SPRING_SSL_BUNDLE_PEM_EXCHANGEXML_TRUSTSTORE_CERTIFICATE)",
                        "exchange-2 reads the server's private key from file:/tmp/server.key, which is not a file in a"
                                + " read-only mount");
    }

    @Test
    void weakSecurityConfigurationIsReported() {
        environment("order-2").put("SPRING_PROFILES_ACTIVE", "prod,local");
        environment("catalog-1").put("AGORA_INTERNAL_TOKEN", "change-me-internal-token");
        environment("exchange-1").remove("AGORA_EXCHANGE_TCP_HOST");
        environment("frontend-1").put("MANAGEMENT_SERVER_PORT", "8080");
        environment("exchange-1").put("AGORA_SECURITY_AUTHORITIES", "http://frontend-1:8080");

        assertThat(ComposeRules.environmentViolations(compose))
                .containsExactlyInAnyOrder(
                        "order-2 runs the local profile, which accepts dev secrets",
                        "catalog-1 still sets the retired AGORA_INTERNAL_TOKEN",
                        "frontend-1 serves actuator on its service port 8080",
                        "exchange-1 binds its XML protocol to loopback (the default), out of the other containers'"
                                + " reach",
                        "exchange-1 AGORA_SECURITY_AUTHORITIES names [http://frontend-1:8080] but the frontends are"
                                + " [http://frontend-1:8080, http://frontend-2:8080]");
    }

    @Test
    void mismatchedClientSecretsOrIssuersAreReported() {
        environment("order-1").put("AGORA_SECURITY_CLIENT_SECRET", "change-me-catalog-service-client-secret");
        environment("exchange-1").put("AGORA_SECURITY_ISSUER", "https://agora.example.com");

        assertThat(ComposeRules.clientSecretViolations(compose))
                .containsExactlyInAnyOrder(
                        "order-1 AGORA_SECURITY_CLIENT_SECRET differs from frontend-1 AGORA_IDENTITY_SERVICE_CLIENTS_ORDER_SERVICE",
                        "order-1 AGORA_SECURITY_CLIENT_SECRET differs from frontend-2 AGORA_IDENTITY_SERVICE_CLIENTS_ORDER_SERVICE",
                        "the services disagree on AGORA_SECURITY_ISSUER: [http://localhost:8080, https://agora.example.com]");
    }

    @Test
    void sharedOrUncreatedDatabasesAreReported() {
        String initScript = DockerDirectory.read("postgres/init-databases.sh");
        environment("order-2").put("DATABASE_URL", "jdbc:postgresql://postgres:5432/catalog");
        environment("exchange-1").put("DATABASE_URL", "jdbc:postgresql://postgres:5432/matching");

        assertThat(ComposeRules.databaseViolations(compose, initScript))
                .containsExactlyInAnyOrder(
                        "order-2 logs in as 'orders', not as catalog, the owner of catalog",
                        "order-2 DATABASE_PASSWORD is not postgres's CATALOG_DATABASE_PASSWORD",
                        "replicas of order-service use different databases: orders, catalog",
                        "database catalog is shared by catalog-service and order-service",
                        "exchange-1 uses database matching, which the init script does not create",
                        "replicas of exchange-service use different databases: matching, exchange");
    }

    @Test
    void aServiceLoggingInAsTheSuperuserOrWithAnotherPasswordIsReported() {
        String initScript = DockerDirectory.read("postgres/init-databases.sh");
        environment("catalog-1").put("DATABASE_USERNAME", "postgres");
        environment("frontend-2").put("DATABASE_PASSWORD", "change-me-postgres-superuser-password");

        assertThat(ComposeRules.databaseViolations(compose, initScript))
                .containsExactlyInAnyOrder(
                        "catalog-1 logs in as 'postgres', not as catalog, the owner of catalog",
                        "catalog-1 logs in as the PostgreSQL superuser",
                        "frontend-2 DATABASE_PASSWORD is not postgres's IDENTITY_DATABASE_PASSWORD");
    }

    @Test
    void aRoleOwningTwoDatabasesIsReported() {
        String initScript = DockerDirectory.read("postgres/init-databases.sh")
                .replace("create_service_database orders orders", "create_service_database orders catalog");

        assertThat(ComposeRules.databaseViolations(compose, initScript))
                .contains("role catalog owns more than one database");
    }

    @Test
    void aDatabaseUrlOutsideComposeIsReported() {
        environment("catalog-1").put("DATABASE_URL", "jdbc:postgresql://db.example.com:5432/catalog");

        assertThat(ComposeRules.databaseViolations(compose, DockerDirectory.read("postgres/init-databases.sh")))
                .containsExactly("catalog-1 DATABASE_URL host db.example.com is not a postgres service");
    }

    @Test
    void aCollidingHostPortIsReported() {
        definition("grafana").put("ports", new ArrayList<>(List.of("8080:3000")));
        definition("exchange-1").put("ports", List.of("12345:12345"));
        definition("prometheus").put("ports", List.of(Map.of("target", 9090, "published", 12345)));

        assertThat(ComposeRules.publishedPortCollisions(compose))
                .containsExactlyInAnyOrder(
                        "host port 8080/tcp is published by [edge, grafana]",
                        "host port 12345/tcp is published by [exchange-1, prometheus]");
    }

    @Test
    void hostPortsAreReadFromEveryMappingForm() {
        assertThat(ComposeRules.publishedHostPort("8080:8080")).contains("8080/tcp");
        assertThat(ComposeRules.publishedHostPort("127.0.0.1:3000:3000")).contains("3000/tcp");
        assertThat(ComposeRules.publishedHostPort("5353:53/udp")).contains("5353/udp");
        assertThat(ComposeRules.publishedHostPort("9090")).isEmpty();
        assertThat(ComposeRules.publishedHostPort(Map.of("target", 80, "published", "8081")))
                .contains("8081/tcp");
    }

    @Test
    void missingOrWeakDependenciesAreReported() {
        ComposeFile.asMap(definition("exchange-1").get("depends_on")).remove("postgres");
        ComposeFile.asMap(definition("frontend-2").get("depends_on")).remove("order-2");
        ComposeFile.asMap(definition("frontend-1").get("depends_on"))
                .put("catalog-2", Map.of("condition", "service_started"));
        definition("edge").put("depends_on", List.of("frontend-1", "frontend-2"));

        assertThat(ComposeRules.dependencyViolations(compose))
                .containsExactlyInAnyOrder(
                        "exchange-1 does not wait for postgres to be healthy",
                        "frontend-2 does not wait for order-2 to be healthy",
                        "frontend-1 waits for catalog-2 with service_started instead of service_healthy",
                        "edge waits for frontend-1 with service_started instead of service_healthy",
                        "edge waits for frontend-2 with service_started instead of service_healthy");
    }

    @Test
    void aMountOfAMissingFileIsReported() {
        definition("edge").put("volumes", List.of("./haproxy/haproxy.conf:/usr/local/etc/haproxy/haproxy.cfg:ro"));

        assertThat(ComposeRules.bindMountViolations(compose, DockerDirectory.ROOT))
                .containsExactly("edge mounts ./haproxy/haproxy.conf, which does not exist");
    }
}
