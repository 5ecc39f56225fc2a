package dev.agora.exchange.store;

import dev.agora.exchange.matching.Account;
import dev.agora.exchange.matching.Execution;
import dev.agora.exchange.matching.MatchingEngine;
import dev.agora.exchange.matching.Order;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PostgreSQL, the exchange's truth. One connection does everything: it holds the session advisory lock
 * that makes this instance the only active one, and every batch is committed through it. If that
 * connection breaks, the lock is gone with it and so is the right to write: the sequencer must
 * {@linkplain #acquireLeadership reacquire} and reload before it commits again.
 *
 * <p>The data source must hand out real, unpooled connections: closing a pooled one would keep its session,
 * and with it the lock, alive in the pool.
 */
public final class ExchangeStore implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ExchangeStore.class);
    private static final int FETCH_SIZE = 10_000;

    private static final String UPSERT_ACCOUNT = "INSERT INTO account (id, balance) VALUES (?, ?) "
            + "ON CONFLICT (id) DO UPDATE SET balance = EXCLUDED.balance";
    private static final String UPSERT_POSITION = "INSERT INTO position (account_id, symbol, shares) VALUES (?, ?, ?) "
            + "ON CONFLICT (account_id, symbol) DO UPDATE SET shares = EXCLUDED.shares";
    private static final String UPSERT_ORDER = "INSERT INTO exchange_order "
            + "(id, account_id, symbol, amount, limit_price, open_shares, canceled_shares, canceled_at) "
            + "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET open_shares = EXCLUDED.open_shares, "
            + "canceled_shares = EXCLUDED.canceled_shares, canceled_at = EXCLUDED.canceled_at";
    private static final String INSERT_EXECUTION = "INSERT INTO execution "
            + "(id, buy_order_id, sell_order_id, symbol, shares, price, executed_at) VALUES (?, ?, ?, ?, ?, ?, ?)";

    private final DataSource dataSource;
    private final long lockKey;
    private Connection connection;

    public ExchangeStore(DataSource dataSource, long lockKey) {
        this.dataSource = dataSource;
        this.lockKey = lockKey;
    }

    /**
     * Blocks until this instance holds the exchange's advisory lock (a standby waits here while another
     * instance is active), polling so that shutdown can interrupt the wait.
     *
     * @return false when {@code keepTrying} said stop before the lock was taken
     */
    public boolean acquireLeadership(BooleanSupplier keepTrying, Duration pollInterval) throws InterruptedException {
        release();
        boolean announced = false;
        Connection candidate = null;
        try {
            while (keepTrying.getAsBoolean()) {
                if (candidate == null) {
                    candidate = dataSource.getConnection();
                    candidate.setAutoCommit(true);
                }
                if (tryLock(candidate)) {
                    candidate.setAutoCommit(false);
                    connection = candidate;
                    candidate = null;
                    log.info("Exchange lock {} taken: this instance is active", lockKey);
                    return true;
                }
                if (!announced) {
                    log.info("Exchange lock {} is held by another instance: standing by", lockKey);
                    announced = true;
                }
                Thread.sleep(pollInterval.toMillis());
            }
            return false;
        } catch (SQLException e) {
            throw new StoreUnavailableException("Could not take the exchange lock", e);
        } finally {
            if (candidate != null) closeQuietly(candidate);
        }
    }

    private boolean tryLock(Connection candidate) throws SQLException {
        try (PreparedStatement lock = candidate.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            lock.setLong(1, lockKey);
            try (ResultSet row = lock.executeQuery()) {
                return row.next() && row.getBoolean(1);
            }
        }
    }

    /** Rebuilds the whole engine state from the tables. */
    public MatchingEngine load(LongSupplier epochSeconds) {
        MatchingEngine engine = new MatchingEngine(epochSeconds);
        long started = System.nanoTime();
        int orders = 0;
        try {
            try (PreparedStatement statement = read("SELECT id, balance FROM account");
                    ResultSet rows = statement.executeQuery()) {
                while (rows.next()) engine.restoreAccount(rows.getString(1), rows.getBigDecimal(2));
            }
            try (PreparedStatement statement = read("SELECT account_id, symbol, shares FROM position");
                    ResultSet rows = statement.executeQuery()) {
                while (rows.next()) engine.restorePosition(rows.getString(1), rows.getString(2), rows.getBigDecimal(3));
            }
            try (PreparedStatement statement = read("SELECT id, account_id, symbol, amount, limit_price, open_shares, "
                            + "canceled_shares, canceled_at FROM exchange_order ORDER BY id");
                    ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    engine.restoreOrder(
                            rows.getLong(1),
                            rows.getString(2),
                            rows.getString(3),
                            rows.getBigDecimal(4),
                            rows.getBigDecimal(5),
                            rows.getBigDecimal(6),
                            rows.getBigDecimal(7),
                            rows.getLong(8));
                    orders++;
                }
            }
            try (PreparedStatement statement = read("SELECT id, buy_order_id, sell_order_id, symbol, shares, price, "
                            + "executed_at FROM execution ORDER BY id");
                    ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    engine.restoreExecution(new Execution(
                            rows.getLong(1),
                            rows.getLong(2),
                            rows.getLong(3),
                            rows.getString(4),
                            rows.getBigDecimal(5),
                            rows.getBigDecimal(6),
                            rows.getLong(7)));
                }
            }
            connection.commit();
        } catch (SQLException e) {
            rollbackQuietly(e);
            throw new StoreUnavailableException("Could not load the exchange state", e);
        }
        log.info("Exchange state loaded: {} orders in {} ms", orders, (System.nanoTime() - started) / 1_000_000);
        return engine;
    }

    /** Writes every row of the change set in one transaction and commits it durably. */
    public void commit(ChangeSet changes) {
        try {
            if (!changes.accounts.isEmpty()) {
                try (PreparedStatement statement = connection.prepareStatement(UPSERT_ACCOUNT)) {
                    for (Account account : changes.accounts) {
                        statement.setString(1, account.id());
                        statement.setBigDecimal(2, account.balance());
                        statement.addBatch();
                    }
                    statement.executeBatch();
                }
            }
            if (!changes.positions.isEmpty()) {
                try (PreparedStatement statement = connection.prepareStatement(UPSERT_POSITION)) {
                    for (ChangeSet.PositionKey position : changes.positions) {
                        statement.setString(1, position.account().id());
                        statement.setString(2, position.symbol());
                        statement.setBigDecimal(3, position.account().shares(position.symbol()));
                        statement.addBatch();
                    }
                    statement.executeBatch();
                }
            }
            if (!changes.orders.isEmpty()) {
                try (PreparedStatement statement = connection.prepareStatement(UPSERT_ORDER)) {
                    for (Order order : changes.orders) {
                        statement.setLong(1, order.id());
                        statement.setString(2, order.accountId());
                        statement.setString(3, order.symbol());
                        statement.setBigDecimal(4, order.amount());
                        statement.setBigDecimal(5, order.limit());
                        statement.setBigDecimal(6, order.open());
                        statement.setBigDecimal(7, order.canceledShares());
                        if (order.canceledShares() == null) statement.setNull(8, Types.BIGINT);
                        else statement.setLong(8, order.canceledAt());
                        statement.addBatch();
                    }
                    statement.executeBatch();
                }
            }
            if (!changes.executions.isEmpty()) {
                try (PreparedStatement statement = connection.prepareStatement(INSERT_EXECUTION)) {
                    for (Execution execution : changes.executions) {
                        statement.setLong(1, execution.id());
                        statement.setLong(2, execution.buyOrderId());
                        statement.setLong(3, execution.sellOrderId());
                        statement.setString(4, execution.symbol());
                        statement.setBigDecimal(5, execution.shares());
                        statement.setBigDecimal(6, execution.price());
                        statement.setLong(7, execution.time());
                        statement.addBatch();
                    }
                    statement.executeBatch();
                }
            }
            connection.commit();
        } catch (SQLException e) {
            rollbackQuietly(e);
            throw new StoreUnavailableException("Could not commit a batch", e);
        }
    }

    /** Gives the lock up by closing its session. */
    public void release() {
        if (connection == null) return;
        closeQuietly(connection);
        connection = null;
    }

    @Override
    public void close() {
        release();
    }

    private void rollbackQuietly(SQLException cause) {
        try {
            connection.rollback();
        } catch (SQLException rollbackFailed) {
            cause.addSuppressed(rollbackFailed);
        }
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException e) {
            log.debug("Closing an exchange connection failed", e);
        }
    }

    private PreparedStatement read(String sql) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        statement.setFetchSize(FETCH_SIZE);
        return statement;
    }
}
