package dev.agora.order.raffle;

import dev.agora.order.order.Order;
import dev.agora.order.order.Orders;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * The raffle's winners as the order log records them: every 100th confirmed buy, marked with its place among all
 * confirmations and its refund when its confirmation committed ({@code Orders.finish}). Nothing here writes.
 */
@Component
class Winners {

    /**
     * One winner: its place among all confirmed buys, the order, its book, the refund (the order's total) and when
     * it won (its confirmation's commit).
     */
    record Winner(long position, long orderId, long bookId, BigDecimal refunded, Instant wonAt) {}

    private final Orders orders;

    Winners(Orders orders) {
        this.orders = orders;
    }

    /** In the order they won. */
    List<Winner> page(int page, int size) {
        return orders.winners(page, size).stream()
                .map(row -> {
                    Order won = row.view();
                    return new Winner(won.confirmation(), won.id(), won.bookId(), won.refunded(), row.updatedAt());
                })
                .toList();
    }

    long count() {
        return orders.winnerCount();
    }
}
