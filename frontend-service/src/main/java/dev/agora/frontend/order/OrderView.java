package dev.agora.frontend.order;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.math.BigDecimal;
import java.time.Instant;

/**
 * An order as the order tier reports it (status PENDING, CONFIRMED or REJECTED); {@code raffle} only for a raffle
 * winner: its place among all confirmed buys and its refund.
 */
record OrderView(
        long orderId,
        long bookId,
        int quantity,
        String status,
        BigDecimal total,
        Instant createdAt,
        @JsonInclude(JsonInclude.Include.NON_NULL) RaffleWin raffle) {

    record RaffleWin(long position, BigDecimal refunded) {}
}
