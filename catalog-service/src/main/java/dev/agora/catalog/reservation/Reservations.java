package dev.agora.catalog.reservation;

import dev.agora.catalog.book.BookChanged;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL of reservations. Callers run {@link #claim} and {@link #take} in one transaction. */
@Repository
class Reservations {

    private static final String COLUMNS = "order_id, book_id, quantity, outcome, unit_price, total, stock_after";

    private final JdbcClient jdbc;

    Reservations(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Inserts the order's reservation as OUT_OF_STOCK unless the order already has one or the book does not
     * exist. A concurrent claim of the same order id waits here until the first transaction ends, then finds
     * the key taken, so exactly one request per order decides.
     */
    Optional<Reservation> claim(long orderId, long bookId, int quantity) {
        return jdbc.sql(
                        """
                        INSERT INTO reservations (order_id, book_id, quantity, outcome, unit_price, stock_after)
                        SELECT :orderId, id, :quantity, 'OUT_OF_STOCK', price, stock FROM books WHERE id = :bookId
                        ON CONFLICT (order_id) DO NOTHING
                        RETURNING\s"""
                                + COLUMNS)
                .param("orderId", orderId)
                .param("bookId", bookId)
                .param("quantity", quantity)
                .query(Reservation.class)
                .optional();
    }

    /**
     * Takes the copies when enough are left (the conditional UPDATE is the whole concurrency control: the
     * row lock serialises takers, and each re-checks the stock it sees) and marks the claimed reservation
     * RESERVED in the same statement.
     */
    Optional<Taken> take(long orderId, long bookId, int quantity) {
        return jdbc.sql(
                        """
                        WITH taken AS (
                            UPDATE books SET stock = stock - :quantity, version = version + 1
                            WHERE id = :bookId AND stock >= :quantity
                            RETURNING id, price, stock, version, topic)
                        UPDATE reservations r
                        SET outcome = 'RESERVED', unit_price = t.price, total = t.price * :quantity,
                            stock_after = t.stock
                        FROM taken t
                        WHERE r.order_id = :orderId
                        RETURNING r.order_id, r.book_id, r.quantity, r.outcome, r.unit_price, r.total,
                                  r.stock_after, t.version, t.topic""")
                .param("orderId", orderId)
                .param("bookId", bookId)
                .param("quantity", quantity)
                .query((rs, row) -> new Taken(
                        new Reservation(
                                rs.getLong("order_id"),
                                rs.getLong("book_id"),
                                rs.getInt("quantity"),
                                ReservationOutcome.RESERVED,
                                rs.getBigDecimal("unit_price"),
                                rs.getBigDecimal("total"),
                                rs.getLong("stock_after")),
                        new BookChanged(rs.getLong("book_id"), rs.getLong("version"), rs.getString("topic"), false)))
                .optional();
    }

    Optional<Reservation> find(long orderId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM reservations WHERE order_id = :orderId")
                .param("orderId", orderId)
                .query(Reservation.class)
                .optional();
    }

    record Taken(Reservation reservation, BookChanged change) {}
}
