package dev.agora.frontend.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agora.frontend.FrontendApplication;
import dev.agora.frontend.cluster.DemoCredentials;
import dev.agora.frontend.cluster.Http;
import dev.agora.frontend.cluster.Metrics;
import dev.agora.frontend.cluster.Tokens;
import dev.agora.frontend.tracing.OtlpReceiver.Received;
import dev.agora.local.cluster.FreePorts;
import dev.agora.local.cluster.LocalProcesses;
import dev.agora.local.cluster.LocalProfile;
import dev.agora.local.postgres.PostgresServer;
import dev.agora.local.postgres.SharedPostgres;
import dev.agora.local.process.ServiceProcess;
import io.opentelemetry.proto.trace.v1.Span.SpanKind;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One authenticated buy is one trace across the tiers: a frontend (a context in this JVM), an order service and a
 * catalog (processes of their exec jars) export their spans over OTLP/HTTP to a receiver inside the test, switched on
 * by exactly the variables the launcher's {@code --otlp} sets. W3C trace context carries the trace from the frontend
 * to the order service and on to the catalog, each server span the child of its caller's client span, and the
 * statements each service sends its database are spans of the same trace.
 */
class TracesAcrossTiersTest {

    private static final Duration READY = Duration.ofSeconds(300);
    private static final List<String> JVM_OPTIONS =
            List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss512k", "-Xmx384m");

    private static OtlpReceiver receiver;
    private static LocalProcesses processes;
    private static ConfigurableApplicationContext frontend;
    private static String frontendUrl;
    private static Tokens tokens;

    @BeforeAll
    static void startTracedServices() throws Exception {
        receiver = new OtlpReceiver();
        processes = new LocalProcesses(Path.of("target", "tracing-logs"));
        PostgresServer postgres = SharedPostgres.get();
        String run = Long.toString(System.currentTimeMillis() % 1_000_000, 36);
        int frontendPort = FreePorts.next();
        frontendUrl = "http://127.0.0.1:" + frontendPort;
        Map<String, String> tracing = new LinkedHashMap<>();
        // What the launcher's --otlp sets for every instance.
        tracing.put("MANAGEMENT_TRACING_EXPORT_ENABLED", "true");
        tracing.put("MANAGEMENT_OPENTELEMETRY_TRACING_EXPORT_OTLP_ENDPOINT", receiver.endpoint());
        tracing.put("MANAGEMENT_TRACING_SAMPLING_PROBABILITY", "1.0");
        // Only so the test need not wait the exporter's default 5 s.
        tracing.put("MANAGEMENT_OPENTELEMETRY_TRACING_EXPORT_SCHEDULE_DELAY", "100ms");
        ServiceProcess catalog = processes.service("catalog-service", "catalog-0", env -> env.env(tracing)
                .env(LocalProfile.database(postgres, "tr_catalog_" + run))
                .env(LocalProfile.trusting(frontendUrl))
                .env("FRONTEND_INSTANCES", frontendUrl)
                .env("AGORA_INSTANCES_FRONTEND_SERVICE", frontendUrl)
                .env(
                        "AGORA_FILES_DIRECTORY",
                        Path.of("target", "tracing-files", run).toAbsolutePath().toString())
                .jvmOptions(JVM_OPTIONS));
        ServiceProcess order = processes.service("order-service", "order-0", env -> env.env(tracing)
                .env(LocalProfile.database(postgres, "tr_orders_" + run))
                .env(LocalProfile.trusting(frontendUrl))
                .env("CATALOG_INSTANCES", catalog.baseUrl())
                .env("AGORA_INSTANCES_CATALOG_SERVICE", catalog.baseUrl())
                .jvmOptions(JVM_OPTIONS));
        catalog.start();
        order.start();
        Path seed = DemoCredentials.write(Path.of("target", "tracing-identity-" + run + ".properties"));
        frontend = new SpringApplicationBuilder(FrontendApplication.class)
                .run(
                        "--spring.profiles.active=" + LocalProfile.NAME,
                        "--agora.limits.rates-enabled=false",
                        "--spring.datasource.url=" + postgres.jdbcUrl("tr_identity_" + run),
                        "--spring.datasource.username=" + postgres.username(),
                        "--spring.datasource.password=" + postgres.password(),
                        "--agora.identity.seed-file=" + seed.toAbsolutePath(),
                        "--server.port=" + frontendPort,
                        "--server.address=127.0.0.1",
                        "--agora.instances.catalog-service=" + catalog.baseUrl(),
                        "--agora.instances.order-service=" + order.baseUrl(),
                        "--agora.instances.exchange-service=" + FreePorts.url(FreePorts.next()),
                        "--agora.cache.enabled=false",
                        "--agora.clients.catalog-service.timeout=10s",
                        "--agora.clients.order-service.timeout=20s",
                        "--spring.jmx.enabled=false",
                        "--management.tracing.export.enabled=true",
                        "--management.opentelemetry.tracing.export.otlp.endpoint=" + receiver.endpoint(),
                        "--management.tracing.sampling.probability=1.0",
                        "--management.opentelemetry.tracing.export.schedule-delay=100ms");
        catalog.awaitReady(READY);
        order.awaitReady(READY);
        tokens = new Tokens(frontendUrl + "/oauth2/token");
        awaitFirstSweep(order.baseUrl());
    }

    /**
     * The order service's first sweep after its election drives every PENDING order, however young
     * (PendingOrderSweeper): a buy placed just before it would be reserved a second time, by the sweeper, in a trace of
     * its own. Later sweeps take only orders pending for seconds, so the buy waits for the first to end (the counter
     * counts a sweep as it ends).
     */
    private static void awaitFirstSweep(String orderService) throws IOException {
        String sweeps = orderService + "/actuator/metrics/agora.orders.recovery.sweeps";
        try (Http http = new Http()) {
            await().atMost(READY)
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> Metrics.firstMeasurement(http.get(sweeps, tokens.adminAuthorization()))
                                    .orElse(0)
                            >= 1);
        }
    }

    @AfterAll
    static void stop() {
        if (frontend != null) frontend.close();
        if (processes != null) processes.close();
        if (receiver != null) receiver.close();
    }

    @Test
    void anAuthenticatedBuyIsOneTraceFromFrontendThroughOrderToCatalogWithItsStatements() throws Exception {
        Map<String, String> headers = new LinkedHashMap<>(tokens.customerAuthorization());
        headers.put("Idempotency-Key", UUID.randomUUID().toString());
        try (Http http = new Http()) {
            Http.Response bought = http.post(frontendUrl + "/api/orders", "{\"bookId\": 1, \"quantity\": 1}", headers);
            assertThat(bought.status()).as(bought.toString()).isEqualTo(201);
        }

        List<Received> trace = awaitTrace(Duration.ofSeconds(60));
        String dump = trace.stream().map(Received::toString).collect(Collectors.joining("\n"));
        Received root = buyAtTheFrontend(receiver.spans()).orElseThrow();
        assertThat(root.parentSpanId())
                .as("the buy starts the trace at the frontend")
                .isEmpty();

        Map<String, Received> byId = trace.stream().collect(Collectors.toMap(Received::spanId, span -> span));
        assertThat(trace)
                .as("every span but the root is the child of a span of the same trace:\n" + dump)
                .allSatisfy(span -> {
                    if (span != root) assertThat(byId).containsKey(span.parentSpanId());
                });
        assertThat(trace.stream().map(Received::service).collect(Collectors.toSet()))
                .contains("frontend-service", "order-service", "catalog-service");

        // A slow first attempt may be hedged or repeated (common/client): every attempt is part of the same trace.
        List<Received> orderServers = calledBy(trace, "order-service", "frontend-service", byId, dump);
        List<Received> catalogServers = calledBy(trace, "catalog-service", "order-service", byId, dump);
        for (Received server : List.of(orderServers.getFirst(), catalogServers.getFirst())) {
            assertThat(trace.stream()
                            .filter(span -> span.service().equals(server.service()))
                            .filter(TracesAcrossTiersTest::isStatement)
                            .filter(span -> descendsFrom(span, server, byId)))
                    .as("%s's statements are spans under its request:\n%s", server.service(), dump)
                    .isNotEmpty();
        }
        assertThat(receiver.spans().stream()
                        .filter(server("order-service").or(server("catalog-service")))
                        // The buy's calls, not the replica clients' health probes (GET /readyz), traced on their own.
                        .filter(span -> span.span().getName().startsWith("http post"))
                        .filter(span -> !span.traceId().equals(root.traceId())))
                .as("no part of the buy started a trace of its own")
                .isEmpty();
    }

    /** The buy's trace once the order service's and the catalog's statements and every span's parent have arrived. */
    private static List<Received> awaitTrace(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<Received> all = receiver.spans();
            Optional<Received> root = buyAtTheFrontend(all);
            if (root.isPresent()) {
                List<Received> trace = all.stream()
                        .filter(span -> span.traceId().equals(root.get().traceId()))
                        .toList();
                Set<String> withStatements = trace.stream()
                        .filter(TracesAcrossTiersTest::isStatement)
                        .map(Received::service)
                        .collect(Collectors.toSet());
                // A server span ends after its children and may be exported in a later batch than theirs.
                Set<String> ids = trace.stream().map(Received::spanId).collect(Collectors.toSet());
                boolean parentsArrived = trace.stream()
                        .allMatch(span -> span.parentSpanId().isEmpty() || ids.contains(span.parentSpanId()));
                if ((withStatements.containsAll(Set.of("order-service", "catalog-service")) && parentsArrived)
                        || System.nanoTime() > deadline) {
                    return trace;
                }
            } else if (System.nanoTime() > deadline) {
                throw new AssertionError("No span of the buy at the frontend arrived; received: " + all);
            }
            Thread.sleep(100);
        }
    }

    private static Optional<Received> buyAtTheFrontend(List<Received> spans) {
        return spans.stream()
                .filter(server("frontend-service"))
                .filter(span -> span.span().getName().equals("http post /api/orders"))
                .findFirst();
    }

    private static Predicate<Received> server(String service) {
        return span -> span.service().equals(service) && span.span().getKind() == SpanKind.SPAN_KIND_SERVER;
    }

    /** The server spans of {@code service} in the trace, each the child of a client span of {@code caller}. */
    private static List<Received> calledBy(
            List<Received> trace, String service, String caller, Map<String, Received> byId, String dump) {
        List<Received> servers = trace.stream().filter(server(service)).toList();
        assertThat(servers)
                .as("%s answered within the trace:\n%s", service, dump)
                .isNotEmpty();
        assertThat(servers)
                .as("each of %s's spans is the child of a call by %s:\n%s", service, caller, dump)
                .allSatisfy(span -> assertThat(byId.get(span.parentSpanId())).satisfies(parent -> {
                    assertThat(parent.service()).isEqualTo(caller);
                    assertThat(parent.span().getKind()).isEqualTo(SpanKind.SPAN_KIND_CLIENT);
                }));
        return servers;
    }

    /** A JDBC statement's span (datasource-micrometer names the SQL in {@code jdbc.query[0]}). */
    private static boolean isStatement(Received span) {
        return span.attributes().keySet().stream().anyMatch(key -> key.startsWith("jdbc.query["));
    }

    private static boolean descendsFrom(Received span, Received ancestor, Map<String, Received> byId) {
        for (Received at = span; at != null; at = byId.get(at.parentSpanId())) {
            if (at == ancestor) return true;
        }
        return false;
    }
}
