package dev.agora.order.order;

import dev.agora.common.timing.ServerTiming;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The order log. Every write is a single auto-committed statement, so the buy path holds a database
 * connection only for the length of one statement, never across the call to the catalog.
 */
@Repository
public class Orders {

    private static final String COLUMNS =
            "id, idempotency_key, owner, book_id, quantity, status, total, rejection, created_at, confirmation, refunded";

    /** Every this many confirmations one wins; fixed by the schema's check (V4__raffle.sql) and confirm_order (V6). */
    public static final int RAFFLE_EVERY = 100;

    private final JdbcClient jdbc;

    Orders(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Records a PENDING order unless its owner already used the key. A racing insert of the same owner and key
     * waits for the first to commit and then inserts nothing, so an owner's key never has two orders. Keys of
     * different owners are unrelated.
     *
     * @param owner the buyer; null for an anonymous buy (the anonymous buys share their keys)
     */
    Optional<Order> insertPending(String idempotencyKey, String owner, long bookId, int quantity) {
        return ServerTiming.measure(ServerTiming.DB, () -> jdbc.sql(
                        """
                        INSERT INTO orders (idempotency_key, owner, book_id, quantity, status)
                        VALUES (:key, :owner, :bookId, :quantity, 'PENDING')
                        ON CONFLICT (idempotency_key, owner) DO NOTHING
                        RETURNING\s"""
                                + COLUMNS)
                .param("key", idempotencyKey)
                .param("owner", owner, Types.VARCHAR)
                .param("bookId", bookId)
                .param("quantity", quantity)
                .query(Orders::order)
                .optional());
    }

    private static Order order(ResultSet row, int index) throws SQLException {
        String rejection = row.getString("rejection");
        return new Order(
                row.getLong("id"),
                row.getString("idempotency_key"),
                row.getString("owner"),
                row.getLong("book_id"),
                row.getInt("quantity"),
                OrderStatus.valueOf(row.getString("status")),
                row.getBigDecimal("total"),
                rejection == null ? null : Rejection.valueOf(rejection),
                row.getObject("created_at", OffsetDateTime.class).toInstant(),
                row.getObject("confirmation", Long.class),
                row.getBigDecimal("refunded"));
    }

    /** The order an owner (null: the anonymous buys) placed under this key. */
    Optional<Order> findByKey(String idempotencyKey, String owner) {
        return ServerTiming.measure(ServerTiming.DB, () -> jdbc.sql("SELECT " + COLUMNS
                        + " FROM orders WHERE idempotency_key = :key AND owner IS NOT DISTINCT FROM :owner")
                .param("key", idempotencyKey)
                .param("owner", owner, Types.VARCHAR)
                .query(Orders::order)
                .optional());
    }

    public Optional<Order> find(long id) {
        return ServerTiming.measure(ServerTiming.DB, () -> jdbc.sql("SELECT " + COLUMNS + " FROM orders WHERE id = :id")
                .param("id", id)
                .query(Orders::order)
                .optional());
    }

    /**
     * Moves a PENDING order to its final state. Only the first finisher changes the row; everyone gets the
     * final row back (all finishers ask the same idempotent reservation, so they agree on the outcome).
     *
     * <p>This commit does not wait for its WAL flush ({@code synchronous_commit} off for this statement's
     * transaction only): the outcome is a copy of the catalog's durable, idempotent reservation. Should a
     * crash lose it, the order is PENDING again and recovery asks the same reservation, which answers the
     * same. The PENDING row itself (written before the catalog is asked) stays fully durable. A raffle winner's
     * confirmation is the exception ({@link #confirm}).
     */
    Order finish(long id, OrderStatus status, BigDecimal total, Rejection rejection) {
        Optional<Order> finished = status == OrderStatus.CONFIRMED ? confirm(id, total) : reject(id, rejection);
        return finished.or(() -> find(id)).orElseThrow();
    }

    /**
     * Confirms a PENDING order and gives it the next place among all confirmations, the raffle's total order
     * across every replica (V4__raffle.sql): one call of {@code confirm_order} (V6), one transaction. It locks the order
     * row first and goes on only if the order is still PENDING once it holds the lock, so a second finisher of the
     * same order (a retry, a read, the sweeper, another replica) counts nothing; then it takes the next place from the
     * tally row, whose lock serialises confirmations until this commit, and marks a winner (every 100th place) with
     * its total as the refund.
     *
     * <p>A winner's commit waits for its WAL flush, so a refund once shown is never lost; the flush carries every
     * earlier place with it (places are taken in commit order). Other confirmations do not wait, as above: a crash
     * that loses them loses the tally's increments with them, in the same transactions, so places stay gap-free.
     */
    private Optional<Order> confirm(long id, BigDecimal total) {
        return ServerTiming.measure(
                ServerTiming.DB, () -> jdbc.sql("SELECT " + COLUMNS + " FROM confirm_order(:id, :total)")
                        .param("id", id)
                        .param("total", total)
                        .query(Orders::order)
                        .optional());
    }

    private Optional<Order> reject(long id, Rejection rejection) {
        return ServerTiming.measure(ServerTiming.DB, () -> jdbc.sql(
                        """
                        UPDATE orders SET status = 'REJECTED', rejection = :rejection, updated_at = now()
                        FROM (SELECT set_config('synchronous_commit', 'off', true)) AS outcome_is_rederivable
                        WHERE id = :id AND status = 'PENDING'
                        RETURNING\s"""
                                + COLUMNS)
                .param("rejection", rejection.name())
                .param("id", id)
                .query(Orders::order)
                .optional());
    }

    /** Everyone's orders, newest first. */
    public List<Order> page(int page, int size) {
        return ServerTiming.measure(ServerTiming.DB, () -> jdbc.sql(
                        "SELECT " + COLUMNS + " FROM orders ORDER BY id DESC LIMIT :size OFFSET :offset")
                .param("size", size)
                .param("offset", (long) page * size)
                .query(Orders::order)
                .list());
    }

    public long count() {
        return ServerTiming.measure(
                ServerTiming.DB,
                () -> jdbc.sql("SELECT count(*) FROM orders").query(Long.class).single());
    }

    /** One owner's orders, newest first. */
    List<Order> pageOf(String owner, int page, int size) {
        return ServerTiming.measure(ServerTiming.DB, () -> jdbc.sql("SELECT " + COLUMNS
                        + " FROM orders WHERE owner = :owner ORDER BY id DESC LIMIT :size OFFSET :offset")
                .param("owner", owner)
                .param("size", size)
                .param("offset", (long) page * size)
                .query(Orders::order)
                .list());
    }

    long countOf(String owner) {
        return ServerTiming.measure(ServerTiming.DB, () -> jdbc.sql("SELECT count(*) FROM orders WHERE owner = :owner")
                .param("owner", owner)
                .query(Long.class)
                .single());
    }

    /** Orders still PENDING that nobody has touched for {@code age}: their request most likely died. */
    public List<Order> pendingFor(Duration age, int limit) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM orders WHERE status = 'PENDING'"
                        + " AND updated_at <= now() - make_interval(secs => :seconds) ORDER BY id LIMIT :limit")
                .param("seconds", age.toMillis() / 1000.0)
                .param("limit", limit)
                .query(Orders::order)
                .list();
    }
}
