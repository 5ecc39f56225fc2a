package dev.agora.exchange.support;

import dev.agora.exchange.history.OrderHistory;
import dev.agora.exchange.matching.MemoryLimits;
import dev.agora.exchange.sequencer.Sequencer;
import dev.agora.exchange.store.JdbcStoredOrders;
import dev.agora.exchange.store.leader.LeaseSettings;
import dev.agora.exchange.xml.XmlProtocolServer;
import dev.agora.local.postgres.PostgresServer;
import dev.agora.local.postgres.SharedPostgres;
import io.netty.handler.ssl.SslContext;
import jakarta.persistence.EntityManagerFactory;
import java.time.Duration;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * A whole exchange inside the test, without Spring: a real PostgreSQL database with a fresh schema, the sequencer and
 * committer, the order history, and the Netty XML server on a free loopback port with the settings the test chooses.
 * For tests that need limits of their own (abuse, TLS) or a database they may shape (64-bit ids).
 */
public final class InTestExchange implements AutoCloseable {

    private final PostgresServer postgres = SharedPostgres.get();
    private final String url;
    private final EntityManagerFactory entities;
    private final Sequencer sequencer;
    private final OrderHistory history;
    private final XmlProtocolServer server;

    /** What a test may change of the server's settings; the rest are the production defaults, timeouts shortened. */
    public record Limits(
            int maxConnections,
            int maxConnectionsPerAddress,
            long maxPendingReplyBytes,
            Duration readTimeout,
            Duration writeTimeout,
            Duration replyTimeout,
            Duration idleTimeout,
            SslContext tls) {

        /** The production reply (10 s) and idle (60 s) timeouts. */
        public Limits(
                int maxConnections,
                int maxConnectionsPerAddress,
                long maxPendingReplyBytes,
                Duration readTimeout,
                Duration writeTimeout,
                SslContext tls) {
            this(
                    maxConnections,
                    maxConnectionsPerAddress,
                    maxPendingReplyBytes,
                    readTimeout,
                    writeTimeout,
                    Duration.ofSeconds(10),
                    Duration.ofSeconds(60),
                    tls);
        }

        public static Limits defaults() {
            return new Limits(4096, 256, 64L << 20, Duration.ofSeconds(3), Duration.ofSeconds(3), null);
        }
    }

    /** A lease long enough for a test JVM on a busy machine (the failover tests in process/ use the short one). */
    public static final LeaseSettings LEASE =
            new LeaseSettings("exchange", Duration.ofSeconds(5), Duration.ofMillis(200), Duration.ofMillis(50));

    /** Starts on a database of its own, emptied and migrated; {@code prepare} may write rows before the engine loads. */
    public InTestExchange(String database, Limits limits, SqlStep prepare) throws Exception {
        this(database, limits, new MemoryLimits(2, 1), prepare);
    }

    /**
     * Starts with the engine's memory limited as given (the other constructor keeps two closed orders and one
     * execution per order, so that nearly every query is answered from PostgreSQL).
     */
    public InTestExchange(String database, Limits limits, MemoryLimits memory, SqlStep prepare) throws Exception {
        this.url = postgres.jdbcUrl(database);
        FreshSchema.migrate(postgres, url);
        DataSource dataSource = new DriverManagerDataSource(url, postgres.username(), postgres.password());
        if (prepare != null) {
            try (var connection = dataSource.getConnection();
                    var statement = connection.createStatement()) {
                prepare.run(statement);
            }
        }
        entities = TestStores.entities(dataSource);
        sequencer = new Sequencer(
                TestStores.store(dataSource, entities, LEASE), () -> 1_700_000_000L, 10_000, 2048, memory);
        history = new OrderHistory(new JdbcStoredOrders(dataSource), 10_000, 2, 256);
        server = new XmlProtocolServer(
                new XmlProtocolServer.Settings(
                        "127.0.0.1",
                        0,
                        64 * 1024,
                        4 << 20,
                        10_000,
                        limits.maxConnections(),
                        limits.maxConnectionsPerAddress(),
                        limits.maxPendingReplyBytes(),
                        limits.readTimeout().toMillis(),
                        limits.readTimeout().multipliedBy(3).toMillis(),
                        limits.replyTimeout().toMillis(),
                        limits.writeTimeout().toMillis(),
                        limits.idleTimeout().toMillis(),
                        1,
                        1024,
                        limits.tls()),
                sequencer,
                history);
        sequencer.whenActive(server::start);
        sequencer.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (server.port() <= 0) {
            if (System.nanoTime() > deadline) throw new IllegalStateException("in-test exchange did not start");
            Thread.sleep(20);
        }
    }

    @FunctionalInterface
    public interface SqlStep {
        void run(java.sql.Statement statement) throws java.sql.SQLException;
    }

    public XmlProtocolServer server() {
        return server;
    }

    public Sequencer sequencer() {
        return sequencer;
    }

    public int port() {
        return server.port();
    }

    public XmlClient client() {
        return XmlClient.local(server.port());
    }

    public String jdbcUrl() {
        return url;
    }

    @Override
    public void close() {
        server.close();
        sequencer.close();
        history.close();
        entities.close();
    }
}
