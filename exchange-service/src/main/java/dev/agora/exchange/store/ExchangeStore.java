package dev.agora.exchange.store;

import dev.agora.exchange.matching.Account;
import dev.agora.exchange.matching.Execution;
import dev.agora.exchange.matching.MatchingEngine;
import dev.agora.exchange.matching.Order;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
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
 * <p>A batch is committed in two steps so that the sequencer never waits for the database: {@link #snapshot}
 * copies the changed rows' current values into plain arrays (on the sequencer thread, which owns the engine),
 * and {@link #commit(Snapshot)} sends them as one statement and waits for the durable commit (on the committer
 * thread, the only user of the connection while the sequencer is active).
 *
 * <p>The data source must hand out real, unpooled connections: closing a pooled one would keep its session,
 * and with it the lock, alive in the pool.
 */
public final class ExchangeStore implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ExchangeStore.class);
    private static final int FETCH_SIZE = 10_000;

    /**
     * Everything a batch changed is written by ONE statement: a single round trip that is also the whole
     * transaction (the connection is in auto-commit), so a batch costs one network exchange and one WAL flush.
     * The statement holds only the tables the batch touches (a batch of creates has no orders or executions),
     * so PostgreSQL runs no plan nodes for empty arrays; each of the fifteen shapes is prepared on first use and
     * keeps its generic plan. The foreign keys are checked at the end of the statement, when the parents written
     * in the same statement exist.
     */
    private static final String[] TABLE_WRITES = {
        """
        INSERT INTO account (id, balance)
        SELECT * FROM unnest(?::text[], ?::numeric[])
        ON CONFLICT (id) DO UPDATE SET balance = EXCLUDED.balance""",
        """
        INSERT INTO position (account_id, symbol, shares)
        SELECT * FROM unnest(?::text[], ?::text[], ?::numeric[])
        ON CONFLICT (account_id, symbol) DO UPDATE SET shares = EXCLUDED.shares""",
        """
        INSERT INTO exchange_order
            (id, account_id, symbol, amount, limit_price, open_shares, canceled_shares, canceled_at)
        SELECT * FROM unnest(?::bigint[], ?::text[], ?::text[], ?::numeric[], ?::numeric[], ?::numeric[],
                             ?::numeric[], ?::bigint[])
        ON CONFLICT (id) DO UPDATE SET open_shares = EXCLUDED.open_shares,
            canceled_shares = EXCLUDED.canceled_shares, canceled_at = EXCLUDED.canceled_at""",
        """
        INSERT INTO execution (id, buy_order_id, sell_order_id, symbol, shares, price, executed_at)
        SELECT * FROM unnest(?::bigint[], ?::bigint[], ?::bigint[], ?::text[], ?::numeric[], ?::numeric[],
                             ?::bigint[])"""
    };

    /** SQL array types of each table's parameters, in the order of {@link #TABLE_WRITES}. */
    private static final String[][] TABLE_COLUMN_TYPES = {
        {"text", "numeric"},
        {"text", "text", "numeric"},
        {"int8", "text", "text", "numeric", "numeric", "numeric", "numeric", "int8"},
        {"int8", "int8", "int8", "text", "numeric", "numeric", "int8"}
    };

    private final DataSource dataSource;
    private final long lockKey;
    private Connection connection;
    /** The batch statement of each shape, indexed by its bit set of non-empty tables. */
    private final PreparedStatement[] batchWrites = new PreparedStatement[1 << TABLE_WRITES.length];

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
                    planOnce(candidate);
                }
                if (tryLock(candidate)) {
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

    /**
     * The batch statement's plan does not depend on its arrays' contents, but PostgreSQL would plan it anew for
     * every batch (a custom plan per execution looks cheaper to it than the generic one): planning four upserts
     * was a large part of the database's CPU per batch. A generic plan is made once per connection.
     */
    private static void planOnce(Connection candidate) throws SQLException {
        try (var statement = candidate.createStatement()) {
            statement.execute("SET plan_cache_mode = force_generic_plan");
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
            // A cursor (fetch size) needs a transaction; batches are written in auto-commit afterwards.
            connection.setAutoCommit(false);
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
            connection.setAutoCommit(true);
        } catch (SQLException e) {
            rollbackQuietly(e);
            throw new StoreUnavailableException("Could not load the exchange state", e);
        }
        log.info("Exchange state loaded: {} orders in {} ms", orders, (System.nanoTime() - started) / 1_000_000);
        return engine;
    }

    /** The values of every row a batch changed, copied out of the engine: immutable, any thread may send it. */
    public static final class Snapshot {
        /** Per table of {@link #TABLE_WRITES}, its columns' values; null for a table the batch did not touch. */
        private final Object[][][] tables;

        private Snapshot(Object[][][] tables) {
            this.tables = tables;
        }

        private int shape() {
            int shape = 0;
            for (int t = 0; t < tables.length; t++) if (tables[t] != null) shape |= 1 << t;
            return shape;
        }
    }

    /** Copies the current values of the rows the change set names (on the thread that owns the engine). */
    public static Snapshot snapshot(ChangeSet changes) {
        int accounts = changes.accounts.size();
        String[] accountIds = new String[accounts];
        BigDecimal[] balances = new BigDecimal[accounts];
        int i = 0;
        for (Account account : changes.accounts) {
            accountIds[i] = account.id();
            balances[i++] = account.balance();
        }

        int positions = changes.positions.size();
        String[] positionAccounts = new String[positions];
        String[] positionSymbols = new String[positions];
        BigDecimal[] shares = new BigDecimal[positions];
        i = 0;
        for (ChangeSet.PositionKey position : changes.positions) {
            positionAccounts[i] = position.account().id();
            positionSymbols[i] = position.symbol();
            shares[i++] = position.account().shares(position.symbol());
        }

        int orders = changes.orders.size();
        Long[] orderIds = new Long[orders];
        String[] owners = new String[orders];
        String[] symbols = new String[orders];
        BigDecimal[] amounts = new BigDecimal[orders];
        BigDecimal[] limits = new BigDecimal[orders];
        BigDecimal[] open = new BigDecimal[orders];
        BigDecimal[] canceled = new BigDecimal[orders];
        Long[] canceledAt = new Long[orders];
        i = 0;
        for (Order order : changes.orders) {
            orderIds[i] = order.id();
            owners[i] = order.accountId();
            symbols[i] = order.symbol();
            amounts[i] = order.amount();
            limits[i] = order.limit();
            open[i] = order.open();
            canceled[i] = order.canceledShares();
            canceledAt[i++] = order.canceledShares() == null ? null : order.canceledAt();
        }

        int executions = changes.executions.size();
        Long[] executionIds = new Long[executions];
        Long[] buys = new Long[executions];
        Long[] sells = new Long[executions];
        String[] executionSymbols = new String[executions];
        BigDecimal[] executedShares = new BigDecimal[executions];
        BigDecimal[] prices = new BigDecimal[executions];
        Long[] times = new Long[executions];
        i = 0;
        for (Execution execution : changes.executions) {
            executionIds[i] = execution.id();
            buys[i] = execution.buyOrderId();
            sells[i] = execution.sellOrderId();
            executionSymbols[i] = execution.symbol();
            executedShares[i] = execution.shares();
            prices[i] = execution.price();
            times[i++] = execution.time();
        }
        return new Snapshot(new Object[][][] {
            accounts == 0 ? null : new Object[][] {accountIds, balances},
            positions == 0 ? null : new Object[][] {positionAccounts, positionSymbols, shares},
            orders == 0
                    ? null
                    : new Object[][] {orderIds, owners, symbols, amounts, limits, open, canceled, canceledAt},
            executions == 0
                    ? null
                    : new Object[][] {executionIds, buys, sells, executionSymbols, executedShares, prices, times}
        });
    }

    /** Writes a snapshot's rows in one transaction (one statement) and returns once the commit is durable. */
    public void commit(Snapshot snapshot) {
        int shape = snapshot.shape();
        if (shape == 0) return; // no table touched: there is no statement to send
        try {
            PreparedStatement statement = batchWrites[shape];
            if (statement == null) statement = batchWrites[shape] = connection.prepareStatement(batchWrite(shape));
            int parameter = 1;
            for (int t = 0; t < TABLE_WRITES.length; t++) {
                Object[][] columns = snapshot.tables[t];
                if (columns == null) continue;
                for (int c = 0; c < columns.length; c++) {
                    statement.setArray(parameter++, connection.createArrayOf(TABLE_COLUMN_TYPES[t][c], columns[c]));
                }
            }
            statement.executeUpdate();
        } catch (SQLException e) {
            throw new StoreUnavailableException("Could not commit a batch", e);
        }
    }

    /** The statement writing the tables whose bits are set: all but the last as CTEs, the last as its body. */
    private static String batchWrite(int shape) {
        StringBuilder sql = new StringBuilder();
        int last = 31 - Integer.numberOfLeadingZeros(shape);
        for (int t = 0; t < last; t++) {
            if ((shape & (1 << t)) == 0) continue;
            sql.append(sql.isEmpty() ? "WITH " : ", ")
                    .append("w")
                    .append(t)
                    .append(" AS (\n")
                    .append(TABLE_WRITES[t])
                    .append("\n)\n");
        }
        return sql.append(TABLE_WRITES[last]).toString();
    }

    /** Gives the lock up by closing its session. */
    public void release() {
        if (connection == null) return;
        closeQuietly(connection);
        connection = null;
        Arrays.fill(batchWrites, null);
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
