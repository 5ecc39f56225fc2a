package dev.agora.order.order;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.NativeQuery;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.Repository;

/**
 * The order log's statements. Reads are JPQL projections to {@link Order}; the buy's writes are native statements, each
 * one round trip (order-service/README.md, "Data tier"): Hibernate translates a JPQL update anew on every execution.
 */
interface PlacedOrders extends Repository<PlacedOrder, Long> {

    String ORDER = "select new dev.agora.order.order.Order(o.id, o.idempotencyKey, o.owner, o.bookId, o.quantity,"
            + " o.status, o.total, o.rejection, o.createdAt, o.confirmation, o.refunded) from PlacedOrder o ";

    /**
     * The id and the database's creation time of an order just inserted. A record that Hibernate builds through its
     * constructor, by the result-set mapping {@value PlacedOrder#INSERTED} (which names the columns' Java types); an
     * interface here would be a proxy per row, each getter a trip through Spring Data's interceptors and conversions.
     */
    record Inserted(long id, Instant createdAt) {}

    /**
     * Inserts a PENDING order unless its owner already used the key (the unique key {@code (idempotency_key, owner)},
     * NULLS NOT DISTINCT): its id and creation time, or empty when the key is taken. Native, in one statement: a
     * persisted entity would take Hibernate's insert, flush and identity read-back on the hot path for the same row,
     * and a taken key would end in a failed statement instead of an answer.
     */
    @NativeQuery(
            value =
                    """
                    insert into orders (idempotency_key, owner, book_id, quantity, status)
                    values (:key, :owner, :bookId, :quantity, 'PENDING')
                    on conflict (idempotency_key, owner) do nothing
                    returning id, created_at""",
            sqlResultSetMapping = PlacedOrder.INSERTED)
    Optional<Inserted> insertPending(String key, String owner, long bookId, int quantity);

    /** An order inserted by {@link #insertAllPending}, with the key and owner it was inserted for. */
    record InsertedForKey(long id, Instant createdAt, String key, String owner) {}

    /**
     * Inserts PENDING orders (the arrays, one element per order; owners may be null) unless their owner already used
     * the key, in one statement: the orders inserted, each with its key and owner. A key already taken, by a committed
     * order or one committing meanwhile (whose commit this statement waits for), inserts nothing. The caller passes
     * each (key, owner) once.
     */
    @NativeQuery(
            value =
                    """
                    insert into orders (idempotency_key, owner, book_id, quantity, status)
                    select k, o, b, q, 'PENDING' from unnest(cast(:keys as varchar[]), cast(:owners as varchar[]),
                        cast(:bookIds as bigint[]), cast(:quantities as integer[])) as t (k, o, b, q)
                    on conflict (idempotency_key, owner) do nothing
                    returning id, created_at, idempotency_key, owner""",
            sqlResultSetMapping = PlacedOrder.INSERTED_FOR_KEY)
    List<InsertedForKey> insertAllPending(String[] keys, String[] owners, Long[] bookIds, Integer[] quantities);

    @Query(ORDER + "where o.id = :id")
    Optional<Order> find(long id);

    @Query(ORDER + "where o.idempotencyKey = :key and o.owner = :owner")
    Optional<Order> findByKey(String key, String owner);

    @Query(ORDER + "where o.idempotencyKey = :key and o.owner is null")
    Optional<Order> findAnonymousByKey(String key);

    /**
     * Gives the order the next place among all confirmations and confirms it with that place if it is still PENDING, in
     * one statement: the raffle tally's {@code UPDATE ... RETURNING} (its row stays locked until the commit, so places
     * are handed out one at a time, in commit order) feeds the order's conditional update. Answers the place, or empty
     * when the order was already final; the tally has counted it anyway (a data-modifying {@code WITH} always runs),
     * so the caller gives the place back ({@link RaffleTallies#giveBackLatestPlace}) while it still holds the row. The
     * commit does not wait for its WAL flush ({@code synchronous_commit} off for this transaction; {@link #refund}
     * turns it back on for a winner). Native, because JPQL has neither {@code WITH} nor {@code RETURNING}.
     */
    @Query(
            value =
                    """
                    with place as (update raffle_tally set confirmed = confirmed + 1 returning confirmed)
                    update orders set status = 'CONFIRMED', total = :total, confirmation = (select confirmed from place),
                        updated_at = current_timestamp
                    where id = :id and status = 'PENDING'
                        and set_config('synchronous_commit', 'off', true) is not null
                    returning confirmation""",
            nativeQuery = true)
    Optional<Long> confirmInNextPlace(long id, BigDecimal total);

    /** A raffle winner's refund (its total), in the transaction that confirmed it, whose commit then waits for the disk. */
    @Modifying
    @Query(
            value =
                    """
                    update orders set refunded = total
                    where id = :id and set_config('synchronous_commit', 'on', true) is not null""",
            nativeQuery = true)
    int refund(long id);

    /** Rejects the order if it is still PENDING; the transaction's commit does not wait for the disk (Orders#finish). */
    @Modifying
    @Query(
            value =
                    """
                    update orders set status = 'REJECTED', rejection = :rejection, updated_at = current_timestamp
                    where id = :id and status = 'PENDING'
                        and set_config('synchronous_commit', 'off', true) is not null""",
            nativeQuery = true)
    int reject(long id, String rejection);

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
