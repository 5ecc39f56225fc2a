package dev.agora.exchange.store;

import dev.agora.common.leader.LeaderLease;
import dev.agora.common.leader.Leadership;
import dev.agora.common.leader.LeaseSettings;
import dev.agora.exchange.matching.Account;
import dev.agora.exchange.matching.Execution;
import dev.agora.exchange.matching.MatchingEngine;
import dev.agora.exchange.matching.MemoryLimits;
import dev.agora.exchange.matching.Order;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PostgreSQL, the exchange's truth. The right to write is a lease ({@link Leadership}, common's
 * {@code dev.agora.common.leader}): an instance waits in {@link #acquireLeadership} until it holds the lease
 * {@code exchange}, and every batch it commits carries the lease's epoch into the same statement
 * ({@code leader_fence}), so a former leader (frozen, then thawed after a standby took over) cannot commit anything:
 * its statement fails, and the lease's listener makes the sequencer stand by. A takeover waits for a fenced batch in
 * flight, so what the successor loads includes every batch its predecessor committed.
 *
 * <p>A batch is committed in two steps so that the sequencer never waits for the database: {@link #snapshot}
 * copies the changed rows' current values into plain arrays (on the sequencer thread, which owns the engine),
 * and {@link #commit(Snapshot)} sends them as one statement and waits for the durable commit (on the committer
 * thread, the only user of the connection while the sequencer is active).
 *
 * <p>The data source must hand out real, unpooled connections: the lease is freed at once when its holder's session
 * ends, which a pool would keep alive.
 */
public final class ExchangeStore implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ExchangeStore.class);
    private static final int FETCH_SIZE = 10_000;

    /**
     * Everything a batch changed is written by ONE statement: a single round trip that is also the whole
     * transaction (the connection is in auto-commit), so a batch costs one network exchange and one WAL flush.
     * New rows are plain inserts and changed rows plain updates (the change set tells them apart): an upsert
     * made PostgreSQL insert every new row speculatively (one more WAL record and index probe per row) and lock
     * every changed row before updating it (one more WAL record per row). The statement holds only the parts
     * whose rows the batch has (a batch of creates updates nothing), so PostgreSQL runs no plan nodes for empty
     * arrays; each shape is prepared on first use and keeps its generic plan. The foreign keys are checked at
     * the end of the statement, when the parents written in the same statement exist.
     */
    private static final String[] TABLE_WRITES = {
        """
        INSERT INTO account (id, balance, owner)
        SELECT * FROM unnest(?::text[], ?::numeric[], ?::text[])""",
        """
        UPDATE account SET balance = changed.balance
        FROM unnest(?::text[], ?::numeric[]) AS changed (id, balance)
        WHERE account.id = changed.id""",
        """
        INSERT INTO position (account_id, symbol, shares)
        SELECT * FROM unnest(?::text[], ?::text[], ?::numeric[])""",
        """
        UPDATE position SET shares = changed.shares
        FROM unnest(?::text[], ?::text[], ?::numeric[]) AS changed (account_id, symbol, shares)
        WHERE position.account_id = changed.account_id AND position.symbol = changed.symbol""",
        """
        INSERT INTO exchange_order
            (id, account_id, symbol, amount, limit_price, open_shares, canceled_shares, canceled_at, client_key)
        SELECT * FROM unnest(?::bigint[], ?::text[], ?::text[], ?::numeric[], ?::numeric[], ?::numeric[],
                             ?::numeric[], ?::bigint[], ?::text[])""",
        """
        UPDATE exchange_order SET open_shares = changed.open_shares,
            canceled_shares = changed.canceled_shares, canceled_at = changed.canceled_at
        FROM unnest(?::bigint[], ?::numeric[], ?::numeric[], ?::bigint[])
            AS changed (id, open_shares, canceled_shares, canceled_at)
        WHERE exchange_order.id = changed.id""",
        """
        INSERT INTO execution (id, buy_order_id, sell_order_id, symbol, shares, price, executed_at)
        SELECT * FROM unnest(?::bigint[], ?::bigint[], ?::bigint[], ?::text[], ?::numeric[], ?::numeric[],
                             ?::bigint[])"""
    };

    /** SQL array types of each part's parameters, in the order of {@link #TABLE_WRITES}. */
    private static final String[][] TABLE_COLUMN_TYPES = {
        {"text", "numeric", "text"},
        {"text", "numeric"},
        {"text", "text", "numeric"},
        {"text", "text", "numeric"},
        {"int8", "text", "text", "numeric", "numeric", "numeric", "numeric", "int8", "text"},
        {"int8", "numeric", "numeric", "int8"},
        {"int8", "int8", "int8", "text", "numeric", "numeric", "int8"}
    };

    private final DataSource dataSource;
    private final Leadership leadership;
    private Connection connection;
    /** The lease's epoch this instance's batches are fenced with; 0 while it holds none. */
    private volatile long epoch;
    /** The batch statement of each shape, indexed by its bit set of non-empty parts. */
    private final PreparedStatement[] batchWrites = new PreparedStatement[1 << TABLE_WRITES.length];

    public ExchangeStore(DataSource dataSource, LeaseSettings lease) {
        this.dataSource = dataSource;
        this.leadership = new Leadership(dataSource, lease, Leadership.holderName("exchange"));
    }

    /** The election this store's writes are fenced by. */
    public Leadership leadership() {
        return leadership;
    }

    /** This instance holds the lease and may be sure of it (false at once after a thawed freeze). */
    public boolean leads() {
        return leadership.isLeader();
    }

    /** Runs {@code listener} (on the election's thread) when the lease is lost without a failed write telling. */
    public void whenLeadershipLost(Runnable listener) {
        leadership.addListener(new Leadership.Listener() {
            @Override
            public void revoked(long lostEpoch, String why) {
                listener.run();
            }
        });
    }

    /**
     * Blocks until this instance holds the exchange's lease (a standby waits here while another instance is
     * active), then opens the session its batches are written through.
     *
     * @return false when {@code keepTrying} said stop before the lease was taken
     */
    public boolean acquireLeadership(BooleanSupplier keepTrying) throws InterruptedException {
        release();
        leadership.start();
        long held = leadership.awaitLeadership(keepTrying);
        if (held == 0) return false;
        Connection candidate = null;
        try {
            candidate = dataSource.getConnection();
            candidate.setAutoCommit(true);
            planOnce(candidate);
            connection = candidate;
            candidate = null;
            epoch = held;
            log.info("Exchange lease taken at epoch {}: this instance is active", held);
            return true;
        } catch (SQLException e) {
            throw new StoreUnavailableException("Could not open the exchange's session", e);
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

    /**
     * Rebuilds the engine's state from the tables: accounts, positions, the open orders (through the partial index
     * of V6, so the time does not grow with the number of closed orders) and where the id sequences stand. Closed
     * orders and executions stay in the database ({@link JdbcStoredOrders} reads them when asked for).
     */
    public MatchingEngine load(LongSupplier epochSeconds, MemoryLimits limits) {
        MatchingEngine engine = new MatchingEngine(epochSeconds, limits);
        long started = System.nanoTime();
        int orders = 0;
        try {
            // A cursor (fetch size) needs a transaction; batches are written in auto-commit afterwards.
            connection.setAutoCommit(false);
            try (PreparedStatement statement = read("SELECT id, balance, owner FROM account");
                    ResultSet rows = statement.executeQuery()) {
                while (rows.next()) engine.restoreAccount(rows.getString(1), rows.getBigDecimal(2), rows.getString(3));
            }
            try (PreparedStatement statement = read("SELECT account_id, symbol, shares FROM position");
                    ResultSet rows = statement.executeQuery()) {
                while (rows.next()) engine.restorePosition(rows.getString(1), rows.getString(2), rows.getBigDecimal(3));
            }
            try (PreparedStatement statement = read("SELECT id, account_id, symbol, amount, limit_price, open_shares "
                            + "FROM exchange_order WHERE open_shares > 0 ORDER BY id");
                    ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    engine.restoreOpenOrder(
                            rows.getLong(1),
                            rows.getString(2),
                            rows.getString(3),
                            rows.getBigDecimal(4),
                            rows.getBigDecimal(5),
                            rows.getBigDecimal(6));
                    orders++;
                }
            }
            // The idempotency keys of the latest keyed orders (V8's partial index), oldest first, so that a placement
            // repeated to this instance after its predecessor placed it (and lost the answer) names that order.
            try (PreparedStatement statement = read("SELECT account_id, client_key, id FROM (SELECT account_id,"
                            + " client_key, id FROM exchange_order WHERE client_key IS NOT NULL ORDER BY id DESC"
                            + " LIMIT " + MatchingEngine.ORDER_KEYS_KEPT + ") latest ORDER BY id");
                    ResultSet rows = statement.executeQuery()) {
                while (rows.next()) engine.restoreOrderKey(rows.getString(1), rows.getString(2), rows.getLong(3));
            }
            try (PreparedStatement statement = read("SELECT (SELECT coalesce(max(id), 0) FROM exchange_order), "
                            + "(SELECT coalesce(max(id), 0) FROM execution)");
                    ResultSet rows = statement.executeQuery()) {
                rows.next();
                engine.restoreSequences(rows.getLong(1), rows.getLong(2));
            }
            connection.commit();
            connection.setAutoCommit(true);
        } catch (SQLException e) {
            rollbackQuietly(e);
            throw new StoreUnavailableException("Could not load the exchange state", e);
        }
        log.info(
                "Exchange state loaded: {} open orders in {} ms; next order id {}",
                orders,
                (System.nanoTime() - started) / 1_000_000,
                engine.nextOrderId());
        return engine;
    }

    /** The values of every row a batch changed, copied out of the engine: immutable, any thread may send it. */
    public static final class Snapshot {
        /** Per part of {@link #TABLE_WRITES}, its columns' values; null for a part the batch has no rows for. */
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
        return new Snapshot(new Object[][][] {
            openedAccounts(changes.openedAccounts),
            accounts(changes.accounts),
            positions(changes.openedPositions),
            positions(changes.positions),
            placedOrders(changes.placedOrders),
            changedOrders(changes.orders),
            executions(changes.executions)
        });
    }

    /**
     * Columns id, balance, owner of new accounts; null when there are none. The owner is written with the account,
     * in the same statement, so an account is never durable without it.
     */
    private static Object[][] openedAccounts(Collection<Account> opened) {
        int rows = opened.size();
        if (rows == 0) return null;
        String[] ids = new String[rows];
        BigDecimal[] balances = new BigDecimal[rows];
        String[] owners = new String[rows];
        int i = 0;
        for (Account account : opened) {
            ids[i] = account.id();
            owners[i] = account.owner();
            balances[i++] = account.balance();
        }
        return new Object[][] {ids, balances, owners};
    }

    /** Columns id, balance of changed accounts (the owner never changes); null when there are none. */
    private static Object[][] accounts(Collection<Account> changed) {
        int rows = changed.size();
        if (rows == 0) return null;
        String[] ids = new String[rows];
        BigDecimal[] balances = new BigDecimal[rows];
        int i = 0;
        for (Account account : changed) {
            ids[i] = account.id();
            balances[i++] = account.balance();
        }
        return new Object[][] {ids, balances};
    }

    /** Columns account_id, symbol, shares; null when there are none. */
    private static Object[][] positions(Collection<ChangeSet.PositionKey> changed) {
        int rows = changed.size();
        if (rows == 0) return null;
        String[] accounts = new String[rows];
        String[] symbols = new String[rows];
        BigDecimal[] shares = new BigDecimal[rows];
        int i = 0;
        for (ChangeSet.PositionKey position : changed) {
            accounts[i] = position.account().id();
            symbols[i] = position.symbol();
            shares[i++] = position.account().shares(position.symbol());
        }
        return new Object[][] {accounts, symbols, shares};
    }

    /** Every column of a new order; null when there are none. */
    private static Object[][] placedOrders(Collection<Order> placed) {
        int rows = placed.size();
        if (rows == 0) return null;
        Long[] ids = new Long[rows];
        String[] owners = new String[rows];
        String[] symbols = new String[rows];
        BigDecimal[] amounts = new BigDecimal[rows];
        BigDecimal[] limits = new BigDecimal[rows];
        BigDecimal[] open = new BigDecimal[rows];
        BigDecimal[] canceled = new BigDecimal[rows];
        Long[] canceledAt = new Long[rows];
        String[] clientKeys = new String[rows];
        int i = 0;
        for (Order order : placed) {
            ids[i] = order.id();
            owners[i] = order.accountId();
            symbols[i] = order.symbol();
            amounts[i] = order.amount();
            limits[i] = order.limit();
            clientKeys[i] = order.clientKey();
            copyProgress(order, i++, open, canceled, canceledAt);
        }
        return new Object[][] {ids, owners, symbols, amounts, limits, open, canceled, canceledAt, clientKeys};
    }

    /** The columns an order's fills and cancel change (id, open, canceled shares and time); null when none. */
    private static Object[][] changedOrders(Collection<Order> changed) {
        int rows = changed.size();
        if (rows == 0) return null;
        Long[] ids = new Long[rows];
        BigDecimal[] open = new BigDecimal[rows];
        BigDecimal[] canceled = new BigDecimal[rows];
        Long[] canceledAt = new Long[rows];
        int i = 0;
        for (Order order : changed) {
            ids[i] = order.id();
            copyProgress(order, i++, open, canceled, canceledAt);
        }
        return new Object[][] {ids, open, canceled, canceledAt};
    }

    private static void copyProgress(
            Order order, int row, BigDecimal[] open, BigDecimal[] canceled, Long[] canceledAt) {
        open[row] = order.open();
        canceled[row] = order.canceledShares();
        canceledAt[row] = order.canceledShares() == null ? null : order.canceledAt();
    }

    /** Every column of an execution; null when there are none. */
    private static Object[][] executions(List<Execution> executed) {
        int rows = executed.size();
        if (rows == 0) return null;
        Long[] ids = new Long[rows];
        Long[] buys = new Long[rows];
        Long[] sells = new Long[rows];
        String[] symbols = new String[rows];
        BigDecimal[] shares = new BigDecimal[rows];
        BigDecimal[] prices = new BigDecimal[rows];
        Long[] times = new Long[rows];
        int i = 0;
        for (Execution execution : executed) {
            ids[i] = execution.id();
            buys[i] = execution.buyOrderId();
            sells[i] = execution.sellOrderId();
            symbols[i] = execution.symbol();
            shares[i] = execution.shares();
            prices[i] = execution.price();
            times[i++] = execution.time();
        }
        return new Object[][] {ids, buys, sells, symbols, shares, prices, times};
    }

    /** Writes a snapshot's rows in one transaction (one statement) and returns once the commit is durable. */
    public void commit(Snapshot snapshot) {
        int shape = snapshot.shape();
        if (shape == 0) return; // no row touched: there is no statement to send
        try {
            PreparedStatement statement = batchWrites[shape];
            if (statement == null) statement = batchWrites[shape] = connection.prepareStatement(batchWrite(shape));
            long fencedWith = epoch;
            statement.setString(1, leadership.name());
            statement.setLong(2, fencedWith);
            int parameter = 3;
            for (int t = 0; t < TABLE_WRITES.length; t++) {
                Object[][] columns = snapshot.tables[t];
                if (columns == null) continue;
                for (int c = 0; c < columns.length; c++) {
                    statement.setArray(parameter++, connection.createArrayOf(TABLE_COLUMN_TYPES[t][c], columns[c]));
                }
            }
            statement.executeQuery().close();
        } catch (SQLException e) {
            if (LeaderLease.isFenced(e)) {
                long lost = epoch;
                leadership.deposed(lost, "a batch was refused: another instance took the lease over");
                throw new StoreUnavailableException("Not committed: leadership at epoch " + lost + " has passed", e);
            }
            throw new StoreUnavailableException("Could not commit a batch", e);
        }
    }

    /**
     * The statement writing the parts whose bits are set, each as a data-modifying CTE (always run to completion), and
     * the fence, which the statement's result reads: one round trip, one transaction, refused as a whole unless this
     * instance's epoch is still the lease's.
     */
    private static String batchWrite(int shape) {
        StringBuilder sql = new StringBuilder("WITH fence AS MATERIALIZED (SELECT leader_fence(?, ?) AS held)");
        for (int t = 0; t < TABLE_WRITES.length; t++) {
            if ((shape & (1 << t)) == 0) continue;
            sql.append(",\nw")
                    .append(t)
                    .append(" AS (\n")
                    .append(TABLE_WRITES[t])
                    .append("\n)");
        }
        return sql.append("\nSELECT held FROM fence").toString();
    }

    /** Closes the session batches are written through (the lease stays with the election). */
    public void release() {
        epoch = 0;
        if (connection == null) return;
        closeQuietly(connection);
        connection = null;
        Arrays.fill(batchWrites, null);
    }

    /** Closes the session and gives the lease up, so that a standby takes over without waiting for it to expire. */
    @Override
    public void close() {
        release();
        leadership.close();
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
