package dev.agora.order.order;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.Repository;

/** The order log's statements. Reads are projections to {@link Order}; final states are conditional updates. */
interface PlacedOrders extends Repository<PlacedOrder, Long> {

    String ORDER = "select new dev.agora.order.order.Order(o.id, o.idempotencyKey, o.owner, o.bookId, o.quantity,"
            + " o.status, o.total, o.rejection, o.createdAt, o.confirmation, o.refunded) from PlacedOrder o ";

    /** Inserts the order ({@code INSERT ... RETURNING} its id and creation time). */
    PlacedOrder save(PlacedOrder order);

    @Query(ORDER + "where o.id = :id")
    Optional<Order> find(long id);

    @Query(ORDER + "where o.idempotencyKey = :key and o.owner = :owner")
    Optional<Order> findByKey(String key, String owner);

    @Query(ORDER + "where o.idempotencyKey = :key and o.owner is null")
    Optional<Order> findAnonymousByKey(String key);

    /**
     * Confirms the order if it is still PENDING (its row lock makes a concurrent finisher wait and then find it
     * final): 1 when this call confirmed it, else 0 and no change. {@code synchronousCommit} ({@code on} or
     * {@code off}) becomes the transaction's {@code synchronous_commit} when the order is confirmed (Orders#finish).
     */
    @Modifying
    @Query(
            """
            update PlacedOrder o set o.status = dev.agora.order.order.OrderStatus.CONFIRMED, o.total = :total,
                o.confirmation = :place, o.refunded = :refunded, o.updatedAt = current_timestamp
            where o.id = :id and o.status = dev.agora.order.order.OrderStatus.PENDING
                and function('set_config', 'synchronous_commit', :synchronousCommit, true) is not null""")
    int confirm(long id, BigDecimal total, long place, BigDecimal refunded, String synchronousCommit);

    /** Rejects the order if it is still PENDING; the transaction's commit does not wait for the disk (Orders#finish). */
    @Modifying
    @Query(
            """
            update PlacedOrder o set o.status = dev.agora.order.order.OrderStatus.REJECTED, o.rejection = :rejection,
                o.updatedAt = current_timestamp
            where o.id = :id and o.status = dev.agora.order.order.OrderStatus.PENDING
                and function('set_config', 'synchronous_commit', 'off', true) is not null""")
    int reject(long id, Rejection rejection);

    /** Newest first. */
    @Query(ORDER + "order by o.id desc")
    List<Order> page(Pageable page);

    @Query("select count(o) from PlacedOrder o")
    long countAll();

    /** One owner's, newest first. */
    @Query(ORDER + "where o.owner = :owner order by o.id desc")
    List<Order> pageOf(String owner, Pageable page);

    @Query("select count(o) from PlacedOrder o where o.owner = :owner")
    long countOf(String owner);

    /** PENDING and untouched for {@code seconds} by the database's clock, by id. */
    @Query(ORDER + "where o.status = dev.agora.order.order.OrderStatus.PENDING"
            + " and o.updatedAt <= current_timestamp - (:seconds) second order by o.id")
    List<Order> pendingFor(double seconds, Pageable page);

    /** Raffle winners, in the order they won. */
    @Query("select o from PlacedOrder o where o.refunded is not null order by o.confirmation")
    List<PlacedOrder> winners(Pageable page);

    @Query("select count(o) from PlacedOrder o where o.refunded is not null")
    long countWinners();
}
