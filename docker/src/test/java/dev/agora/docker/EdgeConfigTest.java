package dev.agora.docker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The HAProxy edge balances over exactly the frontend replicas and checks their readiness. */
class EdgeConfigTest {

    private static final Pattern SERVER = Pattern.compile("(?m)^\\s*server\\s+(\\S+)\\s+([\\w.-]+):(\\d+)");

    private final ComposeFile compose = DockerDirectory.compose();
    private final String haproxy = DockerDirectory.read("haproxy/haproxy.cfg");

    static List<String> backendViolations(ComposeFile compose, String haproxyConfig) {
        List<String> violations = new ArrayList<>();
        Set<String> servers = SERVER.matcher(haproxyConfig)
                .results()
                .map(match -> match.group(2) + ":" + match.group(3))
                .filter(server -> !server.startsWith("exchange"))
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> frontends = compose.replicasOf("frontend-service").stream()
                .map(replica -> replica.name() + ":" + replica.port().orElseThrow())
                .collect(Collectors.toCollection(TreeSet::new));
        if (!servers.equals(frontends))
            violations.add("the edge balances over " + servers + " but the frontends are " + frontends);
        // The exchange's XML protocol goes to every exchange instance's XML port; the readiness check picks the
        // active one.
        Set<String> xmlServers = SERVER.matcher(haproxyConfig)
                .results()
                .map(match -> match.group(2) + ":" + match.group(3))
                .filter(server -> server.startsWith("exchange"))
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> exchanges = compose.replicasOf("exchange-service").stream()
                .map(replica -> replica.name() + ":" + replica.environment().get("AGORA_EXCHANGE_TCP_PORT"))
                .collect(Collectors.toCollection(TreeSet::new));
        if (!xmlServers.equals(exchanges))
            violations.add(
                    "the edge forwards the XML protocol to " + xmlServers + " but the exchanges are " + exchanges);
        if (!haproxyConfig.contains("check port 8380"))
            violations.add("the edge does not check the exchanges' readiness on their HTTP port");
        if (!haproxyConfig.contains("uri /readyz")) violations.add("the edge does not check the frontends' readiness");
        return violations;
    }

    @Test
    void balancesOverEveryFrontendReplicaWithReadinessChecks() {
        assertThat(backendViolations(compose, haproxy)).isEmpty();
    }

    @Test
    void aFrontendMissingFromTheEdgeIsReported() {
        String oneFrontend = haproxy.lines()
                .filter(line -> !line.contains("server frontend-2"))
                .collect(Collectors.joining("\n"));

        assertThat(backendViolations(compose, oneFrontend))
                .containsExactly("the edge balances over [frontend-1:8080] but the frontends are"
                        + " [frontend-1:8080, frontend-2:8080]");
    }

    @Test
    void anExchangeMissingFromTheEdgeIsReported() {
        String oneExchange = haproxy.lines()
                .filter(line -> !line.contains("server exchange-2"))
                .collect(Collectors.joining("\n"));

        assertThat(backendViolations(compose, oneExchange))
                .containsExactly("the edge forwards the XML protocol to [exchange-1:12345] but the exchanges are"
                        + " [exchange-1:12345, exchange-2:12345]");
    }

    @Test
    void listensOnThePortComposePublishesAndMountsItsConfiguration() {
        assertThat(compose.service("edge").ports()).containsExactly("8080:8080");
        assertThat(haproxy).containsPattern("(?m)^\\s*bind :8080$");
        assertThat(compose.service("edge").volumes())
                .contains("./haproxy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro");
        // its own health check and the Prometheus scrape use the monitoring listener
        assertThat(haproxy).containsPattern("(?m)^\\s*bind :8404$").contains("monitor-uri /healthz");
        assertThat(compose.service("edge").healthcheck().get("test").toString()).contains("8404", "/healthz");
    }

    @Test
    void passesTheExchangesTlsThroughUntouched() {
        // The exchange ends the TLS itself: only it sees the client's certificate, which decides what it may do.
        String xml =
                haproxy.substring(haproxy.indexOf("frontend exchange_xml"), haproxy.indexOf("\nbackend exchanges"));
        assertThat(xml).contains("mode tcp").containsPattern("(?m)^\\s*bind :12345$");
        String backend = haproxy.substring(haproxy.indexOf("\nbackend exchanges") + 1);
        backend = backend.substring(0, backend.indexOf("\n\n"));
        assertThat(backend).contains("mode tcp").doesNotContain(" ssl", "crt ");
    }

    @Test
    void keepsInternalAndActuatorEndpointsOffThePublicPort() {
        assertThat(haproxy).containsPattern("return status 404 .* if \\{ path_beg /internal/ /actuator }");
    }

    @Test
    void normalizesThePathAndRefusesPathTricksBeforeTheInternalRule() {
        int normalize = haproxy.indexOf("http-request normalize-uri percent-decode-unreserved");
        int refuse = haproxy.indexOf("http-request return status 400");
        int internal = haproxy.indexOf("http-request return status 404");
        assertThat(normalize).isPositive().isLessThan(refuse);
        assertThat(refuse).isLessThan(internal);
        assertThat(haproxy)
                .contains(
                        "normalize-uri percent-to-uppercase",
                        "normalize-uri path-strip-dot",
                        "normalize-uri path-strip-dotdot",
                        "normalize-uri path-merge-slashes")
                .containsPattern("return status 400 .* if \\{ path -m sub -i %2F %5C %2E %25 }");
    }

    @Test
    void retriesOnlyRequestsThatAreSafeToRepeat() {
        assertThat(haproxy)
                .contains("http-request disable-l7-retry if !METH_GET !{ req.hdr(Idempotency-Key) -m found }");
    }

    /** What the frontends trust from the edge, the edge states itself; what only a frontend may say, it drops. */
    static List<String> forwardingViolations(String haproxyConfig) {
        List<String> violations = new ArrayList<>();
        String publicFrontend = haproxyConfig.substring(
                haproxyConfig.indexOf("frontend public"), haproxyConfig.indexOf("default_backend frontends"));
        for (String rule : List.of(
                "http-request del-header X-Forwarded-For",
                "http-request set-header X-Forwarded-Proto ",
                "http-request set-header X-Forwarded-Port %[dst_port]",
                "http-request del-header X-Forwarded-Host",
                "http-request set-header X-Forwarded-Host %[req.hdr(host)]",
                "http-request del-header Forwarded",
                "http-request del-header Agora-Writing-Frontend")) {
            if (!publicFrontend.contains(rule)) violations.add("the public frontend lacks '" + rule.strip() + "'");
        }
        int dropHost = publicFrontend.indexOf("http-request del-header X-Forwarded-Host");
        int setHost = publicFrontend.indexOf("http-request set-header X-Forwarded-Host");
        if (dropHost >= 0 && setHost >= 0 && setHost < dropHost)
            violations.add("the client's X-Forwarded-Host is dropped after the edge sets its own");
        if (!haproxyConfig.contains("option forwardfor"))
            violations.add("the edge does not set X-Forwarded-For (option forwardfor)");
        return violations;
    }

    @Test
    void setsTheForwardedHeadersItselfAndDropsTheWritingFrontend() {
        assertThat(forwardingViolations(haproxy)).isEmpty();
    }

    @Test
    void anEdgePassingOnTheClientsForwardedHostOrWritingFrontendIsReported() {
        String passing = haproxy.lines()
                .filter(line -> !line.contains("del-header X-Forwarded-Host")
                        && !line.contains("del-header Agora-Writing-Frontend"))
                .collect(Collectors.joining("\n"));

        assertThat(forwardingViolations(passing))
                .containsExactly(
                        "the public frontend lacks 'http-request del-header X-Forwarded-Host'",
                        "the public frontend lacks 'http-request del-header Agora-Writing-Frontend'");
    }
}
