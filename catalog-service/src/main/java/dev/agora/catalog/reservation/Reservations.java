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

    /**
     * A batch's write, one statement: stores the decided reservations (the arrays, one element per order, in the same
     * order) unless their order already has one, and takes the copies from the books, whose rows the transaction holds
     * locked (each of {@code takenBookIds} loses {@code copies} and its version grows by {@code takes}). Answers the
     * order ids this call claimed: one missing was claimed before (or by a transaction that committed while this one
     * waited for its key), and the caller rolls the whole batch back, copies included. Arrays through {@code unnest},
     * so one plan serves every batch size.
     */
    @Query(
            value =
                    """
                    with claimed as (
                        insert into reservations (order_id, book_id, quantity, outcome, unit_price, total, stock_after)
                        select * from unnest(cast(:orderIds as bigint[]), cast(:bookIds as bigint[]),
                            cast(:quantities as integer[]), cast(:outcomes as varchar[]),
                            cast(:unitPrices as numeric[]), cast(:totals as numeric[]), cast(:stocksAfter as bigint[]))
                        on conflict do nothing
                        returning order_id),
                    taken as (
                        update books b set stock = b.stock - t.copies, version = b.version + t.takes
                        from unnest(cast(:takenBookIds as bigint[]), cast(:copies as bigint[]),
                            cast(:takes as bigint[])) as t (id, copies, takes)
                        where b.id = t.id)
                    select order_id from claimed""",
            nativeQuery = true)
    List<Long> claimAll(
            Long[] orderIds,
            Long[] bookIds,
            Integer[] quantities,
            String[] outcomes,
            BigDecimal[] unitPrices,
            BigDecimal[] totals,
            Long[] stocksAfter,
            Long[] takenBookIds,
            Long[] copies,
            Long[] takes);

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
