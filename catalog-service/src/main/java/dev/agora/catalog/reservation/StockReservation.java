package dev.agora.catalog.reservation;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.math.BigDecimal;

/**
 * The row of an order's reservation, keyed by the order id: the key is the claim that makes a reservation
 * idempotent ({@link Reservations#claim}). Written once, never changed; read as {@link Reservation}.
 */
@Entity
@Table(name = "reservations")
class StockReservation {

    @Id
    @Column(name = "order_id")
    private long orderId;

    @Column(name = "book_id", nullable = false)
    private long bookId;

    @Column(nullable = false)
    private int quantity;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 16)
    private ReservationOutcome outcome;

    @Column(name = "unit_price", nullable = false, precision = 10, scale = 2)
    private BigDecimal unitPrice;

    @Column(precision = 14, scale = 2)
    private BigDecimal total;

    @Column(name = "stock_after", nullable = false)
    private long stockAfter;

    protected StockReservation() {}
}
