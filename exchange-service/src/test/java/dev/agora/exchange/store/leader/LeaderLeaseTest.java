package dev.agora.exchange.store.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agora.common.testing.TestDatabase;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/** The lease and its fence on a real PostgreSQL: who may take it, and which writes a deposed leader can no longer make. */
class LeaderLeaseTest {

    private static final String URL = TestDatabase.jdbcUrl("leader_lease_test");

    @BeforeAll
    static void schema() throws Exception {
        try (Connection db = connect();
                Statement statement = db.createStatement()) {
            statement.execute("DROP SCHEMA public CASCADE");
            statement.execute("CREATE SCHEMA public");
            statement.execute(schemaSql());
            statement.execute("CREATE TABLE journal (id BIGINT PRIMARY KEY, written_by TEXT NOT NULL)");
        }
    }

    @Test
    void aHeldLeaseIsTakenByNobodyElseUntilItExpires() throws Exception {
        String name = "expiry-" + System.nanoTime();
        LeaderLease first = new LeaderLease(name, "first", Duration.ofMillis(300));
        LeaderLease second = new LeaderLease(name, "second", Duration.ofMillis(300));
        try (Connection a = connect();
                Connection b = connect()) {
            long epoch = first.tryTake(a).orElseThrow();
            assertThat(second.tryTake(b)).as("held and live").isEmpty();
            assertThat(first.renew(a, epoch)).isTrue();
            Thread.sleep(400);
            OptionalLong taken = second.tryTake(b);
            assertThat(taken).as("expired by the database's clock").isPresent();
            assertThat(taken.getAsLong()).as("every takeover is a new epoch").isEqualTo(epoch + 1);
            assertThat(first.renew(a, epoch))
                    .as("the former holder cannot renew")
                    .isFalse();
            assertThat(first.read(a).orElseThrow().holder()).isEqualTo("second");
        }
    }

    @Test
    void theLeaseIsFreeAtOnceWhenItsHoldersSessionIsGone() throws Exception {
        String name = "session-" + System.nanoTime();
        LeaderLease first = new LeaderLease(name, "first", Duration.ofSeconds(60));
        LeaderLease second = new LeaderLease(name, "second", Duration.ofSeconds(60));
        try (Connection b = connect()) {
            try (Connection a = connect()) {
                first.tryTake(a).orElseThrow();
                assertThat(second.tryTake(b)).isEmpty();
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            OptionalLong taken = OptionalLong.empty();
            while (taken.isEmpty() && System.nanoTime() < deadline) {
                taken = second.tryTake(b);
                Thread.sleep(20);
            }
            assertThat(taken).as("taken long before the 60 s lease ran out").isPresent();
        }
    }

    @Test
    void aDeposedLeadersWriteFailsAndLeavesNothing() throws Exception {
        String name = "fence-" + System.nanoTime();
        LeaderLease first = new LeaderLease(name, "first", Duration.ofMillis(100));
        LeaderLease second = new LeaderLease(name, "second", Duration.ofMillis(100));
        try (Connection a = connect();
                Connection b = connect()) {
            long old = first.tryTake(a).orElseThrow();
            write(a, name, old, 1, "first");
            Thread.sleep(200);
            long current = second.tryTake(b).orElseThrow();

            assertThatThrownBy(() -> write(a, name, old, 2, "first"))
                    .isInstanceOf(LeaderLease.Fenced.class)
                    .satisfies(e -> assertThat(LeaderLease.isFenced(e)).isTrue());
            write(b, name, current, 3, "second");
            assertThat(writers(b)).contains("1:first", "3:second").doesNotContain("2:first");
        }
    }

    @Test
    void aTakeoverWaitsForTheFencedWriteInFlightAndSeesIt() throws Exception {
        String name = "inflight-" + System.nanoTime();
        LeaderLease first = new LeaderLease(name, "first", Duration.ofMillis(100));
        LeaderLease second = new LeaderLease(name, "second", Duration.ofMillis(100));
        try (Connection a = connect();
                Connection b = connect()) {
            long old = first.tryTake(a).orElseThrow();
            a.setAutoCommit(false);
            insert(a, 10, "first");
            LeaderLease.fence(a, name, old);
            Thread.sleep(200);
            CompletableFuture<OptionalLong> takeover = CompletableFuture.supplyAsync(() -> {
                try {
                    return second.tryTake(b);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThatThrownBy(() -> takeover.get(300, TimeUnit.MILLISECONDS))
                    .as("the takeover waits while a fenced write is open")
                    .isInstanceOf(TimeoutException.class);
            a.commit();
            assertThat(takeover.get(5, TimeUnit.SECONDS)).isPresent();
            assertThat(writers(b)).contains("10:first");
            a.setAutoCommit(true);
        }
    }

    @Test
    void renewalsDoNotWaitForFencedWrites() throws Exception {
        String name = "renew-" + System.nanoTime();
        LeaderLease lease = new LeaderLease(name, "only", Duration.ofSeconds(5));
        try (Connection writer = connect();
                Connection renewer = connect()) {
            long epoch = lease.tryTake(renewer).orElseThrow();
            writer.setAutoCommit(false);
            LeaderLease.fence(writer, name, epoch);
            try (Statement timeout = renewer.createStatement()) {
                timeout.execute("SET lock_timeout = '500ms'");
            }
            assertThat(lease.renew(renewer, epoch)).isTrue();
            writer.rollback();
            writer.setAutoCommit(true);
        }
    }

    @Test
    void oneLeaderAtATimeAndASuccessorWhenItStops() throws Exception {
        String name = "election-" + System.nanoTime();
        PGSimpleDataSource sessions = new PGSimpleDataSource();
        sessions.setUrl(URL);
        sessions.setUser(TestDatabase.username());
        sessions.setPassword(TestDatabase.password());
        LeaseSettings settings =
                new LeaseSettings(name, Duration.ofMillis(400), Duration.ofMillis(80), Duration.ofMillis(50));
        try (Leadership first = new Leadership(sessions, settings, "first");
                Leadership second = new Leadership(sessions, settings, "second")) {
            first.start();
            assertThat(first.awaitLeadership(deadline(Duration.ofSeconds(10)))).isPositive();
            second.start();
            Thread.sleep(1_000);
            assertThat(second.isLeader()).as("never two leaders").isFalse();
            assertThat(first.isLeader())
                    .as("renewed past several lease lengths")
                    .isTrue();

            long stopped = System.nanoTime();
            first.close();
            long epoch = second.awaitLeadership(deadline(Duration.ofSeconds(10)));
            assertThat(epoch).isPositive();
            assertThat(Duration.ofNanos(System.nanoTime() - stopped))
                    .as("a released lease is taken at the next look")
                    .isLessThan(Duration.ofMillis(400));
            assertThat(first.isLeader()).isFalse();

            second.deposed(epoch, "test");
            assertThat(second.isLeader()).as("deposed at once").isFalse();
            assertThat(second.awaitLeadership(deadline(Duration.ofSeconds(10))))
                    .as("and, as the lease is its own, taken again at a new epoch")
                    .isGreaterThan(epoch);
        }
    }

    private static java.util.function.BooleanSupplier deadline(Duration limit) {
        long end = System.nanoTime() + limit.toNanos();
        return () -> System.nanoTime() < end;
    }

    /** One fenced write transaction, as a leader makes it. */
    private static void write(Connection connection, String name, long epoch, long id, String by) throws SQLException {
        connection.setAutoCommit(false);
        try {
            insert(connection, id, by);
            LeaderLease.fence(connection, name, epoch);
            connection.commit();
        } catch (SQLException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(true);
        }
    }

    private static void insert(Connection connection, long id, String by) throws SQLException {
        try (var insert = connection.prepareStatement("INSERT INTO journal (id, written_by) VALUES (?, ?)")) {
            insert.setLong(1, id);
            insert.setString(2, by);
            insert.executeUpdate();
        }
    }

    private static java.util.List<String> writers(Connection connection) throws SQLException {
        java.util.List<String> rows = new java.util.ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT id, written_by FROM journal ORDER BY id")) {
            while (row.next()) rows.add(row.getLong(1) + ":" + row.getString(2));
        }
        return rows;
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(URL, TestDatabase.username(), TestDatabase.password());
    }

    private static String schemaSql() throws IOException {
        try (InputStream sql = LeaderLease.class.getResourceAsStream("/db/migration/V7__leader_lease.sql")) {
            return new String(sql.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
