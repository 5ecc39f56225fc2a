package dev.agora.frontend.raffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agora.frontend.cluster.Books;
import dev.agora.frontend.cluster.BookstoreCluster;
import dev.agora.frontend.cluster.Http;
import dev.agora.local.cluster.LocalProcesses;
import dev.agora.local.cluster.LocalProfile;
import dev.agora.local.postgres.PostgresServer;
import dev.agora.local.postgres.SharedPostgres;
import dev.agora.local.process.ServiceProcess;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * The raffle across two frontends and two order replicas (real processes, SIGKILLed mid-load), over the suite's
 * catalogs, with an orders database of its own so the count is this test's: concurrent buyers through both
 * frontends, each buy retried with its key, one order replica killed and restarted in the middle, and an order a
 * crashed replica left PENDING. Afterwards exactly floor(confirmed / 100) winners, at positions 100, 200, ..., each
 * a confirmed order refunded its total, the same list through both frontends, and every confirmed order counted
 * once (places 1..confirmed without gaps or repeats).
 */
class RaffleClusterTest {

    private static final int BUYS = 300;
    private static final int BUYERS = 12;

    private static BookstoreCluster cluster;
    private static final LocalProcesses processes = new LocalProcesses(Path.of("target", "cluster-logs"));
    private static final List<ServiceProcess> orders = new ArrayList<>();
    private static final List<ConfigurableApplicationContext> frontends = new ArrayList<>();
    private static final List<String> frontendUrls = new ArrayList<>();
    private static PostgresServer postgres;
    private static String ordersJdbcUrl;
    private static Http http;

    @BeforeAll
    static void start() {
        cluster = BookstoreCluster.get();
        Books.assumeOrders(cluster);
        http = new Http();
        postgres = SharedPostgres.get();
        ordersJdbcUrl = postgres.jdbcUrl("fe_raffle_" + Long.toString(System.currentTimeMillis() % 1_000_000, 36));
        String authorities = cluster.frontend(0) + "," + cluster.frontend(1);
        String catalogs = LocalProcesses.urls(cluster.catalogs);
        for (int i = 0; i < 2; i++) {
            orders.add(processes.service("order-service", "raffle-order-" + i, order -> order.env(
                            LocalProfile.database(ordersJdbcUrl, postgres.username(), postgres.password()))
                    .env(LocalProfile.trusting(authorities))
                    .env("CATALOG_INSTANCES", catalogs)
                    .env("AGORA_INSTANCES_CATALOG_SERVICE", catalogs)
                    .jvmOptions(List.of(
                            "-XX:TieredStopAtLevel=1",
                            "-XX:+UseSerialGC",
                            "-Xss512k",
                            "-Xmx384m",
                            // Orders a killed replica left PENDING are taken over after a second, not five.
                            "-Dagora.orders.recovery.min-age=1s",
                            "-Dagora.orders.recovery.interval=300ms"))));
        }
        // The first replica migrates the database alone.
        orders.get(0).startAndAwaitReady(BookstoreCluster.readyTimeout());
        // The catalogs keep reservations by order id, and the suite's own order replica numbers its orders from 1
        // too: this database's orders are numbered where the suite's never reach.
        try {
            update("ALTER TABLE orders ALTER COLUMN id RESTART WITH 1000000000");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        // The second replica starts while the frontends (in this JVM) do, on the other core.
        orders.get(1).start();
        String orderUrls = LocalProcesses.urls(orders);
        for (int i = 0; i < 2; i++) {
            ConfigurableApplicationContext frontend = cluster.startAnotherFrontend(
                    "--agora.instances.order-service=" + orderUrls,
                    "--agora.limits.rates-enabled=false",
                    "--agora.clients.order-service.timeout=10s");
            frontends.add(frontend);
            frontendUrls.add("http://127.0.0.1:"
                    + ((WebServerApplicationContext) frontend).getWebServer().getPort());
        }
        orders.get(1).awaitReady(BookstoreCluster.readyTimeout());
    }

    @AfterAll
    static void stop() throws IOException {
        for (ConfigurableApplicationContext frontend : frontends) frontend.close();
        processes.close();
        if (http != null) http.close();
    }

    @Test
    void everyHundredthConfirmedBuyAcrossTwoFrontendsAndTwoOrderReplicasWinsExactlyOnce() throws Exception {
        long book = Books.register(http, cluster, "Raffle prize", BUYS + 10);
        // What a replica that crashed after the catalog reserved and before it wrote the outcome leaves behind
        // (dated ahead until the reservation is made, so that recovery does not take it first).
        long leftPending = pendingOrderAsLeftByACrash(book);
        assertThat(http.post(
                                cluster.catalogs.getFirst().baseUrl() + "/internal/reservations",
                                "{\"orderId\":" + leftPending + ",\"bookId\":" + book + ",\"quantity\":1}",
                                Map.of(
                                        "Authorization",
                                        "Bearer " + cluster.tokens().catalogService()))
                        .status())
                .isEqualTo(200);
        update("UPDATE orders SET updated_at = now() - interval '1 minute' WHERE id = " + leftPending);

        Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
        AtomicInteger sent = new AtomicInteger();
        try (ExecutorService buyers = Executors.newFixedThreadPool(BUYERS)) {
            List<Future<?>> running = new ArrayList<>();
            for (int b = 0; b < BUYERS; b++) {
                running.add(buyers.submit(() -> {
                    for (int i; (i = sent.getAndIncrement()) < BUYS; ) {
                        String key = UUID.randomUUID().toString();
                        // Through both frontends; every tenth buy is sent again with its key, through the other one.
                        int status = buy(frontendUrls.get(i % 2), book, key);
                        if (i % 10 == 0) status = buy(frontendUrls.get((i + 1) % 2), book, key);
                        statuses.computeIfAbsent(status, s -> new AtomicInteger())
                                .incrementAndGet();
                    }
                    return null;
                }));
            }
            // An order replica dies mid-load: its buys in flight are retried on the other replica (same key), and the
            // outcomes it had answered but not written are left PENDING for recovery.
            await().atMost(Duration.ofMinutes(5)).until(() -> sent.get() >= BUYS / 3);
            orders.get(1).kill();
            await().atMost(Duration.ofMinutes(5)).until(() -> sent.get() >= 2 * BUYS / 3);
            // It comes back while the last third of the buys goes on, not before it.
            orders.get(1).start();
            for (Future<?> buyer : running) buyer.get(10, TimeUnit.MINUTES);
            orders.get(1).awaitReady(BookstoreCluster.readyTimeout());
        }

        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> count("SELECT count(*) FROM orders WHERE status = 'PENDING'") == 0);
        long confirmed = count("SELECT count(*) FROM orders WHERE status = 'CONFIRMED'");
        assertThat(confirmed).as("buys answered by status: %s", statuses).isBetween(250L, (long) BUYS + 1);
        assertThat(statuses.getOrDefault(201, new AtomicInteger()).get())
                .as("buys answered by status: %s", statuses)
                .isGreaterThanOrEqualTo(250);
        assertThat(place(leftPending))
                .as("the order recovery confirmed is counted")
                .isPositive();

        // Every confirmed order counted once: places 1..confirmed, no gap, no repeat.
        assertThat(count("SELECT count(DISTINCT confirmation) FROM orders WHERE status = 'CONFIRMED'"))
                .isEqualTo(confirmed);
        assertThat(count("SELECT max(confirmation) FROM orders")).isEqualTo(confirmed);
        assertThat(count("SELECT confirmed FROM raffle_tally")).isEqualTo(confirmed);

        List<Long> expected = new ArrayList<>();
        for (long place = 100; place <= confirmed; place += 100) expected.add(place);
        JsonNode winners = winnersThrough(frontendUrls.get(0));
        assertThat(winnersThrough(frontendUrls.get(1))).isEqualTo(winners);
        List<Long> positions = new ArrayList<>();
        for (JsonNode winner : winners.path("content")) {
            positions.add(winner.path("position").asLong());
            long orderId = winner.path("orderId").asLong();
            assertThat(status(orderId)).isEqualTo("CONFIRMED");
            assertThat(place(orderId)).isEqualTo(winner.path("position").asLong());
            assertThat(winner.path("bookId").asLong()).isEqualTo(book);
            assertThat(winner.path("refunded").decimalValue()).isEqualByComparingTo(new BigDecimal("10.00"));
            assertThat(winner.path("refunded").decimalValue()).isEqualByComparingTo(total(orderId));
        }
        assertThat(positions).isEqualTo(expected);
        assertThat(winners.path("totalElements").asLong()).isEqualTo(confirmed / 100);
        assertThat(count("SELECT count(*) FROM orders WHERE refunded IS NOT NULL"))
                .isEqualTo(confirmed / 100);

        // A winner's own order says so, through either frontend (the anonymous crash-left order is nobody's to read).
        JsonNode first = winners.path("content").get(0);
        long firstWinner = first.path("orderId").asLong();
        if (firstWinner != leftPending) {
            Http.Response order = http.get(
                    frontendUrls.get(1) + "/api/orders/" + firstWinner,
                    cluster.tokens().customerAuthorization());
            assertThat(order.status()).as(order.body()).isEqualTo(200);
            assertThat(order.json().path("raffle").path("position").asLong()).isEqualTo(100);
            assertThat(order.json().path("raffle").path("refunded").decimalValue())
                    .isEqualByComparingTo("10.00");
        }
    }

    @Test
    void theWinnersListIsOpenToAnyoneAndRefusesBadPages() {
        Http.Response anonymous = http.get(frontendUrls.get(0) + "/api/raffle/winners");
        assertThat(anonymous.status()).as(anonymous.body()).isEqualTo(200);
        assertThat(anonymous.json().has("content")).isTrue();
        Http.Response badSize = http.get(frontendUrls.get(0) + "/api/raffle/winners?size=0");
        assertThat(badSize.status()).isEqualTo(400);
        assertThat(badSize.header("Content-Type")).startsWith("application/problem+json");
        assertThat(http.get(frontendUrls.get(0) + "/api/raffle/winners?page=-1").status())
                .isEqualTo(400);
    }

    private static int buy(String frontend, long book, String key) {
        return http.post(
                        frontend + "/api/orders",
                        "{\"bookId\":" + book + ",\"quantity\":1}",
                        Map.of("Authorization", "Bearer " + cluster.tokens().customer(), "Idempotency-Key", key))
                .status();
    }

    private static JsonNode winnersThrough(String frontend) {
        Http.Response winners = http.get(frontend + "/api/raffle/winners?size=1000");
        assertThat(winners.status()).as(winners.body()).isEqualTo(200);
        return winners.json();
    }

    private static long pendingOrderAsLeftByACrash(long book) throws SQLException {
        try (Connection db = ordersDatabase();
                PreparedStatement insert = db.prepareStatement(
                        """
                        INSERT INTO orders (idempotency_key, book_id, quantity, status, created_at, updated_at)
                        VALUES (?, ?, 1, 'PENDING', now(), now() + interval '10 minutes')
                        RETURNING id""")) {
            insert.setString(1, "crashed-" + UUID.randomUUID());
            insert.setLong(2, book);
            try (ResultSet row = insert.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    private static long count(String sql) throws SQLException {
        try (Connection db = ordersDatabase();
                PreparedStatement query = db.prepareStatement(sql);
                ResultSet row = query.executeQuery()) {
            row.next();
            return row.getLong(1);
        }
    }

    private static void update(String sql) throws SQLException {
        try (Connection db = ordersDatabase();
                PreparedStatement statement = db.prepareStatement(sql)) {
            statement.executeUpdate();
        }
    }

    private static long place(long orderId) throws SQLException {
        return count("SELECT coalesce(confirmation, 0) FROM orders WHERE id = " + orderId);
    }

    private static String status(long orderId) throws SQLException {
        try (Connection db = ordersDatabase();
                PreparedStatement query = db.prepareStatement("SELECT status FROM orders WHERE id = ?")) {
            query.setLong(1, orderId);
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return row.getString(1);
            }
        }
    }

    private static BigDecimal total(long orderId) throws SQLException {
        try (Connection db = ordersDatabase();
                PreparedStatement query = db.prepareStatement("SELECT total FROM orders WHERE id = ?")) {
            query.setLong(1, orderId);
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return row.getBigDecimal(1);
            }
        }
    }

    private static Connection ordersDatabase() throws SQLException {
        return DriverManager.getConnection(ordersJdbcUrl, postgres.username(), postgres.password());
    }
}
