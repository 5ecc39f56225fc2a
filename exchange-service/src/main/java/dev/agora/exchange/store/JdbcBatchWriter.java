package dev.agora.exchange.store;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * The batch as ONE statement through plain JDBC: a single round trip that is also the whole transaction (the
 * connection is in auto-commit), so a batch costs one network exchange and one WAL flush. New rows are plain inserts
 * and changed rows plain updates (the change set tells them apart): an upsert made PostgreSQL insert every new row
 * speculatively (one more WAL record and index probe per row) and lock every changed row before updating it (one
 * more WAL record per row). Each table's rows travel as arrays ({@code unnest}); the statement holds only the parts
 * whose rows the batch has (a batch of creates updates nothing), so PostgreSQL runs no plan nodes for empty arrays;
 * each shape is prepared on first use and keeps its generic plan.
 */
final class JdbcBatchWriter implements AutoCloseable {

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
            (id, account_id, symbol, amount, limit_price, open_shares, canceled_shares, canceled_at, client_key, epoch)
        SELECT placed.*, (SELECT epoch FROM fence)
        FROM unnest(?::bigint[], ?::text[], ?::text[], ?::numeric[], ?::numeric[], ?::numeric[],
                    ?::numeric[], ?::bigint[], ?::text[]) AS placed""",
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

    private final Connection connection;
    /** The batch statement of each shape, indexed by its bit set of non-empty parts. */
    private final PreparedStatement[] batchWrites = new PreparedStatement[1 << TABLE_WRITES.length];

    JdbcBatchWriter(Connection connection) {
        this.connection = connection;
    }

    /**
     * Writes one batch's rows as one transaction, fenced with the lease's epoch, and returns once the commit is
     * durable. Used by the committer thread alone, on the session of the instance holding the lease.
     *
     * @throws SQLException whatever the database said; the store tells a fenced-off batch from other failures
     */
    void write(ExchangeStore.Snapshot rows, String lease, long epoch) throws SQLException {
        Object[][][] tables = {
            columns(rows.openedAccounts, text(a -> a.id), numeric(a -> a.balance), text(a -> a.owner)),
            columns(rows.accounts, text(a -> a.id), numeric(a -> a.balance)),
            columns(rows.openedPositions, text(p -> p.accountId), text(p -> p.symbol), numeric(p -> p.shares)),
            columns(rows.positions, text(p -> p.accountId), text(p -> p.symbol), numeric(p -> p.shares)),
            columns(
                    rows.placedOrders,
                    bigint(o -> o.id),
                    text(o -> o.accountId),
                    text(o -> o.symbol),
                    numeric(o -> o.amount),
                    numeric(o -> o.limitPrice),
                    numeric(o -> o.openShares),
                    numeric(o -> o.canceledShares),
                    bigint(o -> o.canceledAt),
                    text(o -> o.clientKey)),
            columns(
                    rows.orders,
                    bigint(o -> o.id),
                    numeric(o -> o.openShares),
                    numeric(o -> o.canceledShares),
                    bigint(o -> o.canceledAt)),
            columns(
                    rows.executions,
                    bigint(e -> e.id),
                    bigint(e -> e.buyOrderId),
                    bigint(e -> e.sellOrderId),
                    text(e -> e.symbol),
                    numeric(e -> e.shares),
                    numeric(e -> e.price),
                    bigint(e -> e.executedAt))
        };
        int shape = 0;
        for (int t = 0; t < tables.length; t++) if (tables[t] != null) shape |= 1 << t;
        if (shape == 0) return;
        PreparedStatement statement = batchWrites[shape];
        if (statement == null) statement = batchWrites[shape] = connection.prepareStatement(batchWrite(shape));
        statement.setString(1, lease);
        statement.setLong(2, epoch);
        statement.setLong(3, epoch);
        int parameter = 4;
        for (int t = 0; t < TABLE_WRITES.length; t++) {
            Object[][] columns = tables[t];
            if (columns == null) continue;
            for (int c = 0; c < columns.length; c++) {
                statement.setArray(parameter++, connection.createArrayOf(TABLE_COLUMN_TYPES[t][c], columns[c]));
            }
        }
        statement.executeQuery().close();
    }

    /** One column of a table: the Java array type the driver sends as the SQL array, and the row's value. */
    private record Column<T>(IntFunction<Object[]> array, Function<T, Object> value) {}

    private static <T> Column<T> text(Function<T, String> value) {
        return new Column<>(String[]::new, value::apply);
    }

    private static <T> Column<T> numeric(Function<T, BigDecimal> value) {
        return new Column<>(BigDecimal[]::new, value::apply);
    }

    private static <T> Column<T> bigint(Function<T, Long> value) {
        return new Column<>(Long[]::new, value::apply);
    }

    /** The rows' values column by column; null when there are no rows. */
    @SafeVarargs
    private static <T> Object[][] columns(List<T> rows, Column<T>... columns) {
        int size = rows.size();
        if (size == 0) return null;
        Object[][] values = new Object[columns.length][];
        for (int c = 0; c < columns.length; c++) {
            Object[] column = columns[c].array().apply(size);
            Function<T, Object> value = columns[c].value();
            for (int r = 0; r < size; r++) column[r] = value.apply(rows.get(r));
            values[c] = column;
        }
        return values;
    }

    /**
     * The statement writing the parts whose bits are set, each as a data-modifying CTE (always run to completion),
     * and the fence, which the statement's result reads: one round trip, one transaction, refused as a whole unless
     * this instance's epoch is still the lease's. Placed orders carry that epoch.
     */
    private static String batchWrite(int shape) {
        StringBuilder sql =
                new StringBuilder("WITH fence AS MATERIALIZED (SELECT leader_fence(?, ?) AS held, ?::bigint AS epoch)");
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

    /** Forgets what was prepared on the session (the session itself is the store's to close). */
    @Override
    public void close() {
        Arrays.fill(batchWrites, null);
    }
}
