package dev.agora.catalog.reservation;

import dev.agora.catalog.book.BookChanged;
import dev.agora.common.timing.ServerTiming;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.SQLExceptionSubclassTranslator;
import org.springframework.jdbc.support.SQLExceptionTranslator;
import org.springframework.stereotype.Repository;

/** The SQL of reservations. */
@Repository
class Reservations {

    private static final String COLUMNS = "order_id, book_id, quantity, outcome, unit_price, total, stock_after";

    private static final String RESERVE =
            "SELECT " + COLUMNS + ", claimed, book_version, book_topic FROM reserve_stock(?, ?, ?)";
    private static final SQLExceptionTranslator SQL_ERRORS = new SQLExceptionSubclassTranslator();
    /**
     * reserve_stock's answer when a concurrent call for the same order claimed it first (V4): its transaction is
     * rolled back and the call must be repeated, which then finds the claim.
     */
    private static final String CALL_AGAIN = "40001";

    private static final int MAX_CALLS = 3;

    private final JdbcClient jdbc;
    /** Plain JDBC for the reservation: its commit is a step of its own, see {@link #reserve}. */
    private final DataSource dataSource;

    Reservations(JdbcClient jdbc, DataSource dataSource) {
        this.jdbc = jdbc;
        this.dataSource = dataSource;
    }

    /**
     * Claims the order id and takes the copies when enough are left, in one auto-committed call of
     * {@code reserve_stock} (V4 migration): one round trip and one commit. Empty for an unknown book.
     */
    Optional<Claim> reserve(long orderId, long bookId, int quantity) {
        return ServerTiming.measure(
                ServerTiming.DB,
                () -> callingAgainAfterAConcurrentClaim(() -> jdbc.sql(RESERVE)
                        .params(orderId, bookId, quantity)
                        .query(Reservations::claim)
                        .optional()));
    }

    /**
     * Like {@link #reserve(long, long, int)}, but the call and its commit are two round trips.
     * {@code beforeCommit} sees the claim between the call and the commit, so work it starts (the invalidation
     * push) overlaps the commit's flush; what it returns comes back with the claim. Empty for an unknown book.
     */
    <T> Optional<Claimed<T>> reserve(long orderId, long bookId, int quantity, Function<Claim, T> beforeCommit) {
        return ServerTiming.measure(
                ServerTiming.DB,
                () -> callingAgainAfterAConcurrentClaim(
                        () -> reserveInTransaction(orderId, bookId, quantity, beforeCommit)));
    }

    private static <T> T callingAgainAfterAConcurrentClaim(Supplier<T> call) {
        for (int calls = 1; ; calls++) {
            try {
                return call.get();
            } catch (DataAccessException e) {
                boolean claimedConcurrently =
                        e.getMostSpecificCause() instanceof SQLException sql && CALL_AGAIN.equals(sql.getSQLState());
                if (!claimedConcurrently || calls == MAX_CALLS) throw e;
            }
        }
    }

    private <T> Optional<Claimed<T>> reserveInTransaction(
            long orderId, long bookId, int quantity, Function<Claim, T> beforeCommit) {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                Optional<Claim> claim = claim(connection, orderId, bookId, quantity);
                Optional<Claimed<T>> claimed = claim.map(found -> new Claimed<>(found, beforeCommit.apply(found)));
                connection.commit();
                return claimed;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            DataAccessException translated = SQL_ERRORS.translate("reserve stock", RESERVE, e);
            throw translated != null ? translated : new UncategorizedSQLException("reserve stock", RESERVE, e);
        }
    }

    private static Optional<Claim> claim(Connection connection, long orderId, long bookId, int quantity)
            throws SQLException {
        try (PreparedStatement call = connection.prepareStatement(RESERVE)) {
            call.setLong(1, orderId);
            call.setLong(2, bookId);
            call.setInt(3, quantity);
            try (ResultSet row = call.executeQuery()) {
                return row.next() ? Optional.of(claim(row, 0)) : Optional.empty();
            }
        }
    }

    private static Claim claim(ResultSet row, int index) throws SQLException {
        Reservation reservation = new Reservation(
                row.getLong("order_id"),
                row.getLong("book_id"),
                row.getInt("quantity"),
                ReservationOutcome.valueOf(row.getString("outcome")),
                row.getBigDecimal("unit_price"),
                row.getBigDecimal("total"),
                row.getLong("stock_after"));
        long version = row.getLong("book_version");
        BookChanged change = row.wasNull()
                ? null
                : new BookChanged(reservation.bookId(), version, row.getString("book_topic"), false);
        return new Claim(reservation, row.getBoolean("claimed"), change);
    }

    /** The book as it stands now, as a change to announce: its current version (empty for an unknown book). */
    Optional<BookChanged> currentState(long bookId) {
        return ServerTiming.measure(ServerTiming.DB, () -> jdbc.sql("SELECT version, topic FROM books WHERE id = ?")
                .param(bookId)
                .query((row, index) -> new BookChanged(bookId, row.getLong("version"), row.getString("topic"), false))
                .optional());
    }

    Optional<Reservation> find(long orderId) {
        return ServerTiming.measure(
                ServerTiming.DB, () -> jdbc.sql("SELECT " + COLUMNS + " FROM reservations WHERE order_id = :orderId")
                        .param("orderId", orderId)
                        .query(Reservation.class)
                        .optional());
    }

    /** The reservations of those orders that have one, by order id. */
    List<Reservation> findAll(List<Long> orderIds) {
        return ServerTiming.measure(ServerTiming.DB, () -> jdbc.sql(
                        "SELECT " + COLUMNS + " FROM reservations WHERE order_id = ANY(:orderIds) ORDER BY order_id")
                .param("orderIds", orderIds.toArray(Long[]::new))
                .query(Reservation.class)
                .list());
    }

    /**
     * The order's reservation; {@code claimedNow} when this call decided it, and {@code change} when it took
     * copies (the book row changed).
     */
    record Claim(Reservation reservation, boolean claimedNow, BookChanged change) {}

    /** A claim and what was started with it before its commit. */
    record Claimed<T>(Claim claim, T startedBeforeCommit) {}
}
