package dev.agora.order.raffle;

import dev.agora.common.timing.ServerTiming;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The raffle's winners as the order log records them: every 100th confirmed buy, marked with its place among all
 * confirmations and its refund when its confirmation committed ({@code Orders.finish}). Nothing here writes.
 */
@Repository
class Winners {

    /**
     * One winner: its place among all confirmed buys, the order, its book, the refund (the order's total) and when
     * it won (its confirmation's commit).
     */
    record Winner(long position, long orderId, long bookId, BigDecimal refunded, Instant wonAt) {}

    private final JdbcClient jdbc;

    Winners(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** In the order they won. */
    List<Winner> page(int page, int size) {
        return ServerTiming.measure(ServerTiming.DB, () -> jdbc.sql(
                        """
                        SELECT confirmation, id, book_id, refunded, updated_at FROM orders
                        WHERE refunded IS NOT NULL ORDER BY confirmation LIMIT :size OFFSET :offset""")
                .param("size", size)
                .param("offset", (long) page * size)
                .query((row, index) -> new Winner(
                        row.getLong("confirmation"),
                        row.getLong("id"),
                        row.getLong("book_id"),
                        row.getBigDecimal("refunded"),
                        row.getObject("updated_at", OffsetDateTime.class).toInstant()))
                .list());
    }

    long count() {
        return ServerTiming.measure(
                ServerTiming.DB, () -> jdbc.sql("SELECT count(*) FROM orders WHERE refunded IS NOT NULL")
                        .query(Long.class)
                        .single());
    }
}
