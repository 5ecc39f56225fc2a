package dev.agora.client;

import dev.agora.local.cluster.FreePorts;
import dev.agora.local.cluster.LocalProcesses;
import dev.agora.local.cluster.LocalProfile;
import dev.agora.local.postgres.PostgresServer;
import dev.agora.local.postgres.SharedPostgres;
import dev.agora.local.process.ServiceProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The services a client of the public API reaches, as real processes from their exec jars on one embedded
 * PostgreSQL: a catalog, an order service, an exchange and a frontend in front of them, whose address is the token
 * issuer ({@code AGORA_SECURITY_ISSUER}) every service accepts, as on the local cluster. Started once per test JVM.
 */
final class ApiCluster {

    /** Start-up on a two-core machine shared with other builds has taken over four minutes. */
    private static final Duration READY = Duration.ofMinutes(10);

    private static final List<String> JVM_OPTIONS =
            List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss512k", "-Xmx384m");

    /** The demo users' OAuth2 clients, seeded into the frontend as the launcher seeds them. */
    static final Map<String, String> SECRETS = Map.of(
            "admin", "api-client-admin-secret-0123456789abcdef0123",
            "trader", "api-client-trader-secret-0123456789abcdef0123",
            "customer", "api-client-customer-secret-0123456789abcdef01",
            "publisher", "api-client-publisher-secret-0123456789abcdef");

    private static ApiCluster shared;
    private static RuntimeException startFailure;

    private static final Path LOGS = Path.of("target", "cluster-logs");

    private final LocalProcesses processes = new LocalProcesses(LOGS);
    private final String frontend;

    static synchronized ApiCluster get() {
        if (startFailure != null) throw new IllegalStateException("The test cluster did not start", startFailure);
        if (shared == null) {
            try {
                shared = new ApiCluster();
            } catch (RuntimeException e) {
                startFailure = e;
                throw e;
            }
            Runtime.getRuntime().addShutdownHook(new Thread(shared::stop, "api-cluster-stop"));
        }
        return shared;
    }

    private ApiCluster() {
        PostgresServer postgres = SharedPostgres.get();
        String run = Long.toString(System.currentTimeMillis() % 1_000_000, 36);
        int frontendPort = FreePorts.next();
        int catalogPort = FreePorts.next();
        frontend = FreePorts.url(frontendPort);
        String catalog = FreePorts.url(catalogPort);
        Map<String, String> issuer = Map.of("AGORA_SECURITY_ISSUER", frontend);
        Path files = Path.of("target", "cluster-files-" + run).toAbsolutePath();
        try {
            ServiceProcess catalogProcess =
                    processes.service("catalog-service", "api-catalog", catalogPort, env -> env.env(
                                    LocalProfile.database(postgres, "api_catalog_" + run))
                            .env(LocalProfile.trusting(frontend))
                            .env(issuer)
                            .env("AGORA_INSTANCES_CATALOG_SERVICE", catalog)
                            .env("AGORA_FILES_DIRECTORY", files.toString())
                            .env("FRONTEND_INSTANCES", frontend)
                            .env("AGORA_INSTANCES_FRONTEND_SERVICE", frontend)
                            .jvmOptions(JVM_OPTIONS));
            ServiceProcess order = processes.service(
                    "order-service", "api-order", env -> env.env(LocalProfile.database(postgres, "api_orders_" + run))
                            .env(LocalProfile.trusting(frontend))
                            .env(issuer)
                            .env("CATALOG_INSTANCES", catalog)
                            .env("AGORA_INSTANCES_CATALOG_SERVICE", catalog)
                            .jvmOptions(JVM_OPTIONS));
            ServiceProcess exchange = processes.service("exchange-service", "api-exchange", env -> env.env(
                            LocalProfile.database(postgres, "api_exchange_" + run))
                    .env(LocalProfile.trusting(frontend))
                    .env(issuer)
                    .env("AGORA_EXCHANGE_TCP_PORT", Integer.toString(FreePorts.next()))
                    .env("AGORA_EXCHANGE_TCP_HOST", "127.0.0.1")
                    .jvmOptions(JVM_OPTIONS));
            // From the frontend jar's test AOT cache, which the launcher's cluster tests train in the same build (or
            // this test, when it comes first; the other then waits for that one training).
            ServiceProcess frontendProcess =
                    processes.service("frontend-service", "api-frontend", frontendPort, env -> env.env(
                                    LocalProfile.database(postgres, "api_identity_" + run))
                            .env(issuer)
                            .env("AGORA_IDENTITY_SEED_FILE", seedFile(run).toString())
                            .env("CATALOG_INSTANCES", catalog)
                            .env("ORDER_INSTANCES", order.baseUrl())
                            .env("EXCHANGE_INSTANCES", exchange.baseUrl())
                            // One address sends every test's calls, faster than a production caller may.
                            .env("AGORA_LIMITS_RATES_ENABLED", "false")
                            .jvmOptions(JVM_OPTIONS));
            LocalProcesses.startAndAwaitReady(List.of(catalogProcess, order, exchange, frontendProcess), READY);
        } catch (RuntimeException e) {
            stop();
            throw e;
        }
    }

    private void stop() {
        processes.close();
    }

    /** The frontend's base URL, which is also the token issuer. */
    String frontend() {
        return frontend;
    }

    String issuer() {
        return frontend;
    }

    private static Path seedFile(String run) {
        StringBuilder text = new StringBuilder();
        SECRETS.forEach((user, secret) -> text.append(user)
                .append(".client-id=demo-")
                .append(user)
                .append('\n')
                .append(user)
                .append(".client-secret=")
                .append(secret)
                .append('\n'));
        try {
            Path file = Path.of("target", "api-identity-" + run + ".properties").toAbsolutePath();
            Files.createDirectories(file.getParent());
            return Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
