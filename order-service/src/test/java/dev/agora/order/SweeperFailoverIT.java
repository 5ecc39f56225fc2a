package dev.agora.order;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.local.cluster.Health;
import dev.agora.local.cluster.LocalProcesses;
import dev.agora.local.cluster.LocalProfile;
import dev.agora.local.postgres.PostgresServer;
import dev.agora.local.postgres.SharedPostgres;
import dev.agora.local.process.ServiceProcess;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Two real order processes on one database: exactly one of them sweeps (the holder of the lease
 * {@code order-recovery}), the other never does; when the sweeping one is killed, the other takes the lease and
 * drives the orders left PENDING.
 */
class SweeperFailoverIT {

    private static final Duration READY = Duration.ofMinutes(3);
    /** No such book: the catalog answers "unknown", and the sweeper rejects the order, whatever the stock. */
    private static final long NO_SUCH_BOOK = 987_654_321L;

    private final PostgresServer postgres = SharedPostgres.get();
    private static final String DATABASE = "orders_sweeper_it";
    private final String jdbcUrl = postgres.jdbcUrl(DATABASE);
    private final LocalProcesses processes = new LocalProcesses(Path.of("target", "it-logs"));

    @BeforeEach
    void emptyDatabase() throws SQLException {
        try (Connection connection = connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP SCHEMA public CASCADE");
            statement.execute("CREATE SCHEMA public");
        }
    }

    @AfterEach
    void stopProcesses() {
        processes.close();
    }

    @Test
    void oneInstanceSweepsAndTheOtherTakesOverWhenItIsKilled() throws Exception {
        // The catalogs start in the background while the order processes are prepared (the first may train the
        // jar's AOT cache) and start; the sweeper needs them only once an order is left pending.
        String catalogs = String.join(",", CatalogReplicas.urls());
        ServiceProcess first = order("order-sweeper-0", catalogs);
        ServiceProcess second = order("order-sweeper-1", catalogs);
        first.start();
        second.start();
        CatalogReplicas.get();
        first.awaitReady(READY);
        second.awaitReady(READY);

        ServiceProcess sweeping = awaitOneSweeper(first, second);
        ServiceProcess idle = sweeping == first ? second : first;
        // Over a dozen sweep intervals: the other instance never sweeps, and there is never a second sweeper.
        for (int i = 0; i < 20; i++) {
            assertThat(recovery(idle).path("sweeper").asBoolean()).isFalse();
            assertThat(recovery(idle).path("sweeps").asLong()).isZero();
            Thread.sleep(150);
        }
        assertThat(recovery(sweeping).path("sweeps").asLong()).isPositive();

        long left = pendingOrderAsLeftByACrash();
        awaitFinal(left);
        assertThat(recovery(sweeping).path("recovered").asLong()).isEqualTo(1);
        assertThat(recovery(idle).path("recovered").asLong()).isZero();

        long killed = System.nanoTime();
        sweeping.kill();
        long leftAfterKill = pendingOrderAsLeftByACrash();
        awaitSweeper(idle);
        System.out.println("Sweeper taken over "
                + Duration.ofNanos(System.nanoTime() - killed).toMillis() + " ms after SIGKILL");
        awaitFinal(leftAfterKill);
        assertThat(recovery(idle).path("recovered").asLong()).isEqualTo(1);
    }

    private ServiceProcess awaitOneSweeper(ServiceProcess first, ServiceProcess second) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            boolean firstSweeps = recovery(first).path("sweeper").asBoolean();
            boolean secondSweeps = recovery(second).path("sweeper").asBoolean();
            assertThat(firstSweeps && secondSweeps).as("two sweepers at once").isFalse();
            if (firstSweeps) return first;
            if (secondSweeps) return second;
            Thread.sleep(100);
        }
        throw new AssertionError("no instance took the recovery lease");
    }

    private void awaitSweeper(ServiceProcess process) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            if (recovery(process).path("sweeper").asBoolean()) return;
            Thread.sleep(50);
        }
        throw new AssertionError(process.name() + " never took the recovery lease");
    }

    private static JsonNode recovery(ServiceProcess process) throws Exception {
        String health = Health.of(process.baseUrl(), Duration.ofSeconds(5))
                .orElseThrow(() -> new AssertionError(process.name() + " gave no health in 5 s"));
        return OrderTestSupport.JSON
                .readTree(health)
                .path("components")
                .path("recovery")
                .path("details");
    }

    /** A PENDING order dated a minute back, as a crash between the saga's steps leaves one. */
    private long pendingOrderAsLeftByACrash() throws SQLException {
        try (Connection db = connect();
                Statement statement = db.createStatement();
                ResultSet row = statement.executeQuery(
                        "INSERT INTO orders (idempotency_key, book_id, quantity, status, created_at, updated_at)"
                                + " VALUES ('sweeper-it-' || gen_random_uuid(), " + NO_SUCH_BOOK + ", 1, 'PENDING',"
                                + " now() - interval '1 minute', now() - interval '1 minute') RETURNING id")) {
            row.next();
            return row.getLong(1);
        }
    }

    private void awaitFinal(long orderId) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        String status = null;
        while (System.nanoTime() < deadline) {
            try (Connection db = connect();
                    var query = db.prepareStatement("SELECT status FROM orders WHERE id = ?")) {
                query.setLong(1, orderId);
                try (ResultSet row = query.executeQuery()) {
                    row.next();
                    status = row.getString(1);
                }
            }
            if (!"PENDING".equals(status)) {
                assertThat(status).isEqualTo("REJECTED");
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("order " + orderId + " still " + status);
    }

    private ServiceProcess order(String name, String catalogs) {
        return processes.service("order-service", name, order -> order.env(CatalogReplicas.localProfile())
                .env(LocalProfile.database(postgres, DATABASE))
                .env("DATABASE_POOL_SIZE", "4")
                .env("CATALOG_INSTANCES", catalogs)
                .env("AGORA_ORDERS_RECOVERY_INTERVAL", "300ms")
                .env("AGORA_ORDERS_RECOVERY_MIN_AGE", "1s"));
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl, postgres.username(), postgres.password());
    }
}
