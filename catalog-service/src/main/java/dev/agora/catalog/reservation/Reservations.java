package dev.agora.catalog.reservation;

import dev.agora.catalog.book.BookChanged;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL of reservations. */
@Repository
class Reservations {

    private static final String COLUMNS = "order_id, book_id, quantity, outcome, unit_price, total, stock_after";

    private final JdbcClient jdbc;

    Reservations(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Claims the order id and takes the copies when enough are left, in one auto-committed call of
     * {@code reserve_stock} (V3 migration): one round trip and one commit. Empty for an unknown book.
     */
    Optional<Claim> reserve(long orderId, long bookId, int quantity) {
        return jdbc.sql("SELECT " + COLUMNS + ", claimed, book_version, book_topic FROM reserve_stock(?, ?, ?)")
                .params(orderId, bookId, quantity)
                .query(Reservations::claim)
                .optional();
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
        return jdbc.sql("SELECT version, topic FROM books WHERE id = ?")
                .param(bookId)
                .query((row, index) -> new BookChanged(bookId, row.getLong("version"), row.getString("topic"), false))
                .optional();
    }

    Optional<Reservation> find(long orderId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM reservations WHERE order_id = :orderId")
                .param("orderId", orderId)
                .query(Reservation.class)
                .optional();
    }

    /**
     * The order's reservation; {@code claimedNow} when this call decided it, and {@code change} when it took
     * copies (the book row changed).
     */
    record Claim(Reservation reservation, boolean claimedNow, BookChanged change) {}
}
