package dev.agora.order.recovery;

import dev.agora.common.leader.LeaderLease;
import dev.agora.common.leader.Leadership;
import dev.agora.order.order.Order;
import dev.agora.order.order.Orders;
import dev.agora.order.order.PlacingOrder;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.persistence.EntityManager;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Drives orders left PENDING to a final state, on one instance at a time: the holder of the lease
 * {@code order-recovery} ({@link RecoveryConfiguration}). Right after taking the lease it drives all of them
 * (whatever request was driving them died with its process, or belongs to another replica, which is harmless),
 * then every interval those pending longer than the minimum age. Driving again is safe at any time: the catalog
 * reserves at most once per order id and only the first outcome is recorded.
 *
 * <p>Each order is driven in a transaction of its own whose last statement is the lease's fence: an instance that
 * lost the lease (frozen, then thawed after another took over) writes no outcome; its transaction is rolled back and
 * it stops sweeping. (Its reservation at the catalog may still be made: that is idempotent by order id, exactly as
 * when a buyer's retry and the sweeper drive the same order.)
 *
 * <p>{@code agora.orders.recovered} counts the orders it brought to a final state, {@code agora.orders.recovery.sweeps}
 * the sweeps this instance ran. Buys and reads settle their own orders, so the first stays flat but for restarts,
 * catalog outages and outcome writes that failed.
 */
@Component
class PendingOrderSweeper {

    private static final Logger log = LoggerFactory.getLogger(PendingOrderSweeper.class);

    private final Orders orders;
    private final PlacingOrder placing;
    private final RecoveryProperties properties;
    private final Leadership leadership;
    private final TransactionTemplate transactions;
    private final EntityManager entityManager;
    private final Counter recovered;
    private final Counter sweeps;
    /** The epoch of the last sweep: a sweep at a new one is this instance's first since it took the lease. */
    private long sweptAt;

    PendingOrderSweeper(
            Orders orders,
            PlacingOrder placing,
            RecoveryProperties properties,
            Leadership sweeperLeadership,
            TransactionTemplate transactions,
            EntityManager entityManager,
            MeterRegistry meters) {
        this.orders = orders;
        this.placing = placing;
        this.properties = properties;
        this.leadership = sweeperLeadership;
        this.transactions = transactions;
        this.entityManager = entityManager;
        this.recovered = Counter.builder("agora.orders.recovered")
                .description("Orders left PENDING that recovery brought to a final state")
                .register(meters);
        this.sweeps = Counter.builder("agora.orders.recovery.sweeps")
                .description("Sweeps this instance ran as the holder of the recovery lease")
                .register(meters);
    }

    /**
     * A backlog (orders left PENDING while the catalog was away) is worked off batch after batch in one sweep
     * rather than one batch per interval; a batch in which no order could be finished (the catalog is still
     * away) ends the sweep until the next interval.
     */
    @Scheduled(initialDelay = 0, fixedDelayString = "${agora.orders.recovery.interval:2s}")
    void sweep() {
        long epoch = leadership.epoch();
        if (epoch == 0) return;
        Duration age = epoch == sweptAt ? properties.minAge() : Duration.ZERO;
        sweptAt = epoch;
        sweeps.increment();
        int driven = 0;
        int batches = 0;
        long finished = 0;
        List<Order> pending;
        long finishedInBatch;
        do {
            pending = orders.pendingFor(age, properties.batch());
            finishedInBatch = 0;
            for (Order order : pending) {
                if (!leadership.isLeader()) return;
                Order outcome;
                try {
                    outcome = driveFenced(order, epoch);
                } catch (RuntimeException e) {
                    if (!LeaderLease.isFenced(e)) throw e;
                    leadership.deposed(epoch, "an order's outcome was refused: another instance sweeps now");
                    return;
                }
                if (!outcome.isPending()) finishedInBatch++;
            }
            driven += pending.size();
            finished += finishedInBatch;
            recovered.increment(finishedInBatch);
            batches++;
        } while (pending.size() == properties.batch() && finishedInBatch > 0);
        if (driven == 0) return;
        log.info(
                "Recovery drove {} pending orders in {} batch(es), {} reached a final state (lease epoch {})",
                driven,
                batches,
                finished,
                epoch);
    }

    /** Drives one order; its outcome commits only while {@code epoch} is still the lease's. */
    private Order driveFenced(Order order, long epoch) {
        return transactions.execute(status -> {
            Order outcome = placing.drive(order);
            // Last before the commit: the native query first flushes the outcome's writes.
            entityManager
                    .createNativeQuery(LeaderLease.FENCE)
                    .setParameter(1, leadership.name())
                    .setParameter(2, epoch)
                    .getSingleResult();
            return outcome;
        });
    }

    long sweeps() {
        return (long) sweeps.count();
    }

    long recovered() {
        return (long) recovered.count();
    }
}
