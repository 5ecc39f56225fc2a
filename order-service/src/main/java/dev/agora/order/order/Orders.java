package dev.agora.order.order;

import dev.agora.common.timing.ServerTiming;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.data.domain.PageRequest;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The order log ({@link PlacedOrder} rows through {@link PlacedOrders}). Every write is a short transaction of its
 * own, so the buy path holds a database connection only for the length of one write, never across the call to the
 * catalog. Reads are read-only transactions. Writes join a transaction already under way: the recovery sweeper's,
 * which ends with the lease's fence.
 */
@Repository
public class Orders {

    /** Every this many confirmations one wins; fixed by the schema's check (V4__raffle.sql). */
    public static final int RAFFLE_EVERY = RaffleTally.EVERY;

    private final PlacedOrders orders;
    private final RaffleTallies tallies;
    private final TransactionTemplate transactions;

    Orders(PlacedOrders orders, RaffleTallies tallies, TransactionTemplate transactions) {
        this.orders = orders;
        this.tallies = tallies;
        this.transactions = transactions;
    }

    /**
     * Records a PENDING order unless its owner already used the key: one {@code INSERT ... ON CONFLICT DO NOTHING
     * RETURNING} and its commit ({@link PlacedOrders#insertPending}). The unique key (idempotency key, owner) decides:
     * an insert racing with another of the same owner and key waits for the first to commit and then inserts nothing,
     * so an owner's key never has two orders; that is this method's empty answer, and the caller reads the order that
     * has the key. Keys of different owners are unrelated.
     *
     * @param owner the buyer; null for an anonymous buy (the anonymous buys share their keys)
     */
    @Transactional
    Optional<Order> insertPending(String idempotencyKey, String owner, long bookId, int quantity) {
        return ServerTiming.measure(ServerTiming.DB, () -> orders.insertPending(idempotencyKey, owner, bookId, quantity)
                .map(inserted ->
                        Order.pending(inserted.id(), idempotencyKey, owner, bookId, quantity, inserted.createdAt())));
    }

    /** A PENDING order to record ({@link #insertAllPending}); {@code owner} null for an anonymous buy. */
    record NewOrder(String idempotencyKey, String owner, long bookId, int quantity) {

        OwnersKey ownersKey() {
            return new OwnersKey(idempotencyKey, owner);
        }
    }

    /** An owner's key: what the unique key {@code (idempotency_key, owner)} compares, null owners alike. */
    record OwnersKey(String idempotencyKey, String owner) {}

    /**
     * Records PENDING orders as {@link #insertPending} does each, in one statement and one commit (which waits for the
     * disk, as each alone would): for each order, in the same order, the order inserted, or empty when its owner
     * already used the key. Each (key, owner) may be asked for once.
     */
    @Transactional
    List<Optional<Order>> insertAllPending(List<NewOrder> wanted) {
        int n = wanted.size();
        String[] keys = new String[n];
        String[] owners = new String[n];
        Long[] bookIds = new Long[n];
        Integer[] quantities = new Integer[n];
        for (int i = 0; i < n; i++) {
            NewOrder order = wanted.get(i);
            keys[i] = order.idempotencyKey();
            owners[i] = order.owner();
            bookIds[i] = order.bookId();
            quantities[i] = order.quantity();
        }
        Map<OwnersKey, PlacedOrders.InsertedForKey> inserted = new HashMap<>();
        for (PlacedOrders.InsertedForKey row : orders.insertAllPending(keys, owners, bookIds, quantities)) {
            inserted.put(new OwnersKey(row.key(), row.owner()), row);
        }
        List<Optional<Order>> answers = new ArrayList<>(n);
        for (NewOrder order : wanted) {
            answers.add(Optional.ofNullable(inserted.get(order.ownersKey()))
                    .map(row -> Order.pending(
                            row.id(),
                            order.idempotencyKey(),
                            order.owner(),
                            order.bookId(),
                            order.quantity(),
                            row.createdAt())));
        }
        return answers;
    }

    /** The order an owner (null: the anonymous buys) placed under this key. */
    @Transactional(readOnly = true)
    Optional<Order> findByKey(String idempotencyKey, String owner) {
        return ServerTiming.measure(
                ServerTiming.DB,
                () -> owner == null
                        ? orders.findAnonymousByKey(idempotencyKey)
                        : orders.findByKey(idempotencyKey, owner));
    }

    @Transactional(readOnly = true)
    public Optional<Order> find(long id) {
        return ServerTiming.measure(ServerTiming.DB, () -> orders.find(id));
    }

    /**
     * Moves a PENDING order to its final state and returns the order as it is then. Only the first finisher changes
     * the row; everyone gets the final row back (all finishers ask the same idempotent reservation, so they agree on
     * the outcome). See {@link #recordAll} for the write.
     */
    Order finish(long id, OrderStatus status, BigDecimal total, Rejection rejection) {
        return ServerTiming.measure(
                ServerTiming.DB,
                () -> transactions.execute(transaction -> {
                    write(id, status, total, rejection);
                    return orders.find(id).orElseThrow();
                }));
    }

    /** A buy's outcome, to be recorded after its answer ({@link #recordAll}). */
    public record Outcome(long orderId, OrderStatus status, BigDecimal total, Rejection rejection) {}

    /**
     * Moves PENDING orders to their final states, as {@link #finish}, without reading them back, all in one transaction
     * (one commit, one turn on the raffle tally's row, the places given in list order). Only the first finisher of an
     * order changes its row.
     *
     * <p>This commit does not wait for its WAL flush ({@code synchronous_commit} off for this transaction only):
     * each outcome is a copy of the catalog's durable, idempotent reservation. Should a crash lose it, the orders are
     * PENDING again and recovery asks the same reservations, which answer the same. The PENDING rows themselves
     * (written before the catalog is asked) stay fully durable. A raffle winner is the exception ({@link #confirm}):
     * its refund is written after every other statement of the transaction, so the commit waits for the disk.
     */
    public void recordAll(List<Outcome> outcomes) {
        ServerTiming.measure(
                ServerTiming.DB,
                () -> transactions.execute(transaction -> {
                    List<Long> winners = new ArrayList<>(1);
                    for (Outcome outcome : outcomes) {
                        if (outcome.status() == OrderStatus.CONFIRMED) {
                            Optional<Long> place = takePlace(outcome.orderId(), outcome.total());
                            if (place.isPresent() && RaffleTally.wins(place.get())) winners.add(outcome.orderId());
                        } else {
                            orders.reject(outcome.orderId(), outcome.rejection().name());
                        }
                    }
                    // Last: each statement above turns synchronous_commit off for the transaction, a refund turns it
                    // on.
                    winners.forEach(orders::refund);
                    return null;
                }));
    }

    private boolean write(long id, OrderStatus status, BigDecimal total, Rejection rejection) {
        return status == OrderStatus.CONFIRMED ? confirm(id, total) : orders.reject(id, rejection.name()) == 1;
    }

    /**
     * Confirms a PENDING order and gives it the next place among all confirmations, the raffle's total order across
     * every replica, in one statement ({@link PlacedOrders#confirmInNextPlace}): the tally's row, locked by the count
     * until the commit, makes the place read, decided on and written with no other confirmation in between
     * (optimistic retries would only collide, since every confirmation needs the row). A second finisher of the same
     * order (a retry, a read, the sweeper or another replica) finds it final and gives its place back: it still holds
     * the tally's row, so no later place was taken, and the transaction (perhaps the sweeper's) goes on. Every
     * {@value #RAFFLE_EVERY}th place wins its total back ({@link RaffleTally#wins}).
     *
     * <p>A winner's commit waits for its WAL flush, so a refund once shown is never lost; the flush carries every
     * earlier place with it (places are taken in commit order). Other confirmations do not wait, as above: a crash
     * that loses them loses the tally's increments with them, in the same transactions, so places stay gap-free.
     */
    private boolean confirm(long id, BigDecimal total) {
        Optional<Long> place = takePlace(id, total);
        if (place.isEmpty()) return false;
        if (RaffleTally.wins(place.get())) orders.refund(id);
        return true;
    }

    /** The order's place when this call confirmed it; empty (and the place given back) when it was already final. */
    private Optional<Long> takePlace(long id, BigDecimal total) {
        Optional<Long> place = orders.confirmInNextPlace(id, total);
        if (place.isEmpty()) tallies.giveBackLatestPlace();
        return place;
    }

    /** Everyone's orders, newest first. */
    @Transactional(readOnly = true)
    public List<Order> page(int page, int size) {
        return ServerTiming.measure(ServerTiming.DB, () -> orders.page(PageRequest.of(page, size)));
    }

    @Transactional(readOnly = true)
    public long count() {
        return ServerTiming.measure(ServerTiming.DB, orders::countAll);
    }

    /** One owner's orders, newest first. */
    @Transactional(readOnly = true)
    List<Order> pageOf(String owner, int page, int size) {
        return ServerTiming.measure(ServerTiming.DB, () -> orders.pageOf(owner, PageRequest.of(page, size)));
    }

    @Transactional(readOnly = true)
    long countOf(String owner) {
        return ServerTiming.measure(ServerTiming.DB, () -> orders.countOf(owner));
    }

    /** Orders still PENDING that nobody has touched for {@code age}: their request most likely died. */
    @Transactional(readOnly = true)
    public List<Order> pendingFor(Duration age, int limit) {
        return orders.pendingFor(age.toMillis() / 1000.0, PageRequest.of(0, limit));
    }

    /** The raffle's winners, in the order they won. */
    @Transactional(readOnly = true)
    public List<PlacedOrder> winners(int page, int size) {
        return ServerTiming.measure(ServerTiming.DB, () -> orders.winners(PageRequest.of(page, size)));
    }

    @Transactional(readOnly = true)
    public long winnerCount() {
        return ServerTiming.measure(ServerTiming.DB, orders::countWinners);
    }
}
