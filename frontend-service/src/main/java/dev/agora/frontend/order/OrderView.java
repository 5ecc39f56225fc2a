package dev.agora.frontend.order;

import java.math.BigDecimal;
import java.time.Instant;

/** An order as the order tier reports it (status PENDING, CONFIRMED or REJECTED). */
record OrderView(long orderId, long bookId, int quantity, String status, BigDecimal total, Instant createdAt) {}
