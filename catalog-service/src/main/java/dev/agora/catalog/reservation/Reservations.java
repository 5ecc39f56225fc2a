package dev.agora.catalog.reservation;

import java.math.BigDecimal;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.Repository;
import org.springframework.transaction.annotation.Transactional;

/** The reservations table: claims, and reads as {@link Reservation} records. */
interface Reservations extends Repository<StockReservation, Long> {

    /**
     * Stores the order's decided reservation unless the order already has one: 1 when this call claimed the order
     * id, 0 when it was claimed before. A claim racing with this one for the same order id (not yet committed) makes
     * this call wait for it and then find the key taken, so an order id is decided once. Native: Hibernate would
     * translate the same JPQL insert anew on every reservation.
     */
    @Modifying
    @Query(
            value =
                    """
                    insert into reservations (order_id, book_id, quantity, outcome, unit_price, total, stock_after)
                    values (:orderId, :bookId, :quantity, :outcome, :unitPrice, :total, :stockAfter)
                    on conflict do nothing""",
            nativeQuery = true)
    int claim(
            long orderId,
            long bookId,
            int quantity,
            String outcome,
            BigDecimal unitPrice,
            BigDecimal total,
            long stockAfter);

    @Transactional(readOnly = true)
    @Query(
            """
            select new dev.agora.catalog.reservation.Reservation(
                r.orderId, r.bookId, r.quantity, r.outcome, r.unitPrice, r.total, r.stockAfter)
            from StockReservation r where r.orderId = :orderId""")
    Optional<Reservation> find(long orderId);

    /** The reservations of those orders that have one, by order id. */
    @Transactional(readOnly = true)
    @Query(
            """
            select new dev.agora.catalog.reservation.Reservation(
                r.orderId, r.bookId, r.quantity, r.outcome, r.unitPrice, r.total, r.stockAfter)
            from StockReservation r where r.orderId in :orderIds order by r.orderId""")
    List<Reservation> findAll(Collection<Long> orderIds);
}
