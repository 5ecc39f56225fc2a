package dev.agora.order.recovery;

import dev.agora.order.order.Order;
import dev.agora.order.order.Orders;
import dev.agora.order.order.PlacingOrder;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.integration.leader.event.OnGrantedEvent;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Drives orders left PENDING to a final state, on one instance at a time: the leader that Spring Integration's
 * {@link LockRegistryLeaderInitiator} elects ({@link RecoveryConfiguration}). Right after it was elected it drives all of
 * them (whatever request was driving them died with its process, or belongs to another replica, which is harmless),
 * then every interval those pending longer than the minimum age. Driving again is safe at any time, so a sweeper that
 * was frozen and thawed after another took over does no harm in the moment before it notices: the catalog reserves at
 * most once per order id and only the first outcome is recorded (a conditional update of a PENDING row).
 *
 * <p>{@code agora.orders.recovered} counts the orders it brought to a final state, {@code agora.orders.recovery.sweeps}
 * the sweeps this instance finished (counted as each ends, so a reader that sees one knows its query is done). Buys
 * and reads settle their own orders, so the first stays flat but for restarts, catalog outages and outcome writes
 * that failed.
 */
@Component
class PendingOrderSweeper {

    private static final Logger log = LoggerFactory.getLogger(PendingOrderSweeper.class);

    private final Orders orders;
    private final PlacingOrder placing;
    private final RecoveryProperties properties;
    private final LockRegistryLeaderInitiator leadership;
    private final Counter recovered;
    private final Counter sweeps;
    private final AtomicLong elections = new AtomicLong();
    /** The election of the last sweep: a sweep after a new one is this instance's first since it was elected. */
    private long sweptAt;

    PendingOrderSweeper(
            Orders orders,
            PlacingOrder placing,
            RecoveryProperties properties,
            LockRegistryLeaderInitiator sweeperLeadership,
            MeterRegistry meters) {
        this.orders = orders;
        this.placing = placing;
        this.properties = properties;
        this.leadership = sweeperLeadership;
        this.recovered = Counter.builder("agora.orders.recovered")
                .description("Orders left PENDING that recovery brought to a final state")
                .register(meters);
        this.sweeps = Counter.builder("agora.orders.recovery.sweeps")
                .description("Sweeps this instance finished as the elected sweeper")
                .register(meters);
    }

    @EventListener
    void elected(OnGrantedEvent granted) {
        elections.incrementAndGet();
    }

    /**
     * A backlog (orders left PENDING while the catalog was away) is worked off batch after batch in one sweep
     * rather than one batch per interval; a batch in which no order could be finished (the catalog is still
     * away) ends the sweep until the next interval.
     */
    @Scheduled(initialDelay = 0, fixedDelayString = "${agora.orders.recovery.interval:2s}")
    void sweep() {
        if (!leads()) return;
        try {
            sweepAsLeader();
        } finally {
            sweeps.increment();
        }
    }

    private void sweepAsLeader() {
        long election = elections.get();
        Duration age = election == sweptAt ? properties.minAge() : Duration.ZERO;
        sweptAt = election;
        int driven = 0;
        int batches = 0;
        long finished = 0;
        List<Order> pending;
        long finishedInBatch;
        do {
            pending = orders.pendingFor(age, RecoveryProperties.BATCH);
            finishedInBatch = 0;
            for (Order order : pending) {
                if (!leads()) return;
                if (!placing.drive(order).isPending()) finishedInBatch++;
            }
            driven += pending.size();
            finished += finishedInBatch;
            recovered.increment(finishedInBatch);
            batches++;
        } while (pending.size() == RecoveryProperties.BATCH && finishedInBatch > 0);
        if (driven == 0) return;
        log.info(
                "Recovery drove {} pending orders in {} batch(es), {} reached a final state (election {})",
                driven,
                batches,
                finished,
                election);
    }

    private boolean leads() {
        return leadership.getContext().isLeader();
    }

    long elections() {
        return elections.get();
    }

    long sweeps() {
        return (long) sweeps.count();
    }

    long recovered() {
        return (long) recovered.count();
    }
}
