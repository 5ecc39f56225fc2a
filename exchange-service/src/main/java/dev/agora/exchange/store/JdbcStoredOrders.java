package dev.agora.exchange.store;

import dev.agora.exchange.matching.OrderSnapshot;
import dev.agora.exchange.matching.StoredOrders;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Closed orders and executions, read from PostgreSQL for queries the engine cannot answer from memory. Uses the
 * service's connection pool (never the sequencer's own connection, which only the committer uses); one round trip
 * per order: the order's row and its executions (V6's indexes find them) in one statement.
 */
public final class JdbcStoredOrders implements StoredOrders {

    private static final String READ =
            """
            SELECT o.account_id, o.symbol, o.amount, o.limit_price, o.open_shares, o.canceled_shares, o.canceled_at,
                   e.shares, e.price, e.executed_at
            FROM exchange_order o
            LEFT JOIN LATERAL (
                SELECT id, shares, price, executed_at FROM execution
                WHERE (buy_order_id = o.id OR sell_order_id = o.id) AND id <= ?
                ORDER BY id
                LIMIT ?
            ) e ON true
            WHERE o.id = ?
            ORDER BY e.id""";

    private final DataSource dataSource;

    public JdbcStoredOrders(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public Optional<OrderSnapshot> read(long orderId, long executionsUpTo, int maxExecutions) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(READ)) {
            statement.setLong(1, executionsUpTo);
            statement.setInt(2, maxExecutions + 1);
            statement.setLong(3, orderId);
            try (ResultSet rows = statement.executeQuery()) {
                if (!rows.next()) return Optional.empty();
                String accountId = rows.getString(1);
                String symbol = rows.getString(2);
                BigDecimal amount = rows.getBigDecimal(3);
                BigDecimal limit = rows.getBigDecimal(4);
                BigDecimal open = rows.getBigDecimal(5);
                BigDecimal canceled = rows.getBigDecimal(6);
                long canceledAt = rows.getLong(7);
                boolean buy = amount.signum() > 0;
                List<OrderSnapshot.SignedFill> executions = new ArrayList<>();
                do {
                    BigDecimal shares = rows.getBigDecimal(8);
                    if (shares == null) break; // no executions: the one row of the outer join
                    executions.add(new OrderSnapshot.SignedFill(
                            buy ? shares : shares.negate(), rows.getBigDecimal(9), rows.getLong(10)));
                } while (rows.next());
                return Optional.of(new OrderSnapshot(
                        orderId,
                        accountId,
                        symbol,
                        amount,
                        limit,
                        open.signum() > 0 ? (buy ? open : open.negate()) : null,
                        canceled == null
                                ? null
                                : new OrderSnapshot.Cancellation(buy ? canceled : canceled.negate(), canceledAt),
                        executions,
                        0));
            }
        } catch (SQLException e) {
            throw new StoreUnavailableException("Could not read order " + orderId, e);
        }
    }
}
