package dev.agora.order.recovery;

import dev.agora.order.order.Order;
import dev.agora.order.order.Orders;
import dev.agora.order.order.PlacingOrder;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Drives orders left PENDING to a final state: all of them once after start-up (whatever request was
 * driving them died with the previous process, or belongs to another replica, which is harmless), then
 * every interval those pending longer than the minimum age. Driving again is safe at any time: the
 * catalog reserves at most once per order id and only the first outcome is recorded.
 *
 * <p>{@code agora.orders.recovered} counts the orders it brought to a final state. Buys and reads settle their
 * own orders, so it stays flat but for restarts, catalog outages and outcome writes that failed.
 */
@Component
@EnableConfigurationProperties(RecoveryProperties.class)
class PendingOrderSweeper {

    private static final Logger log = LoggerFactory.getLogger(PendingOrderSweeper.class);

    private final Orders orders;
    private final PlacingOrder placing;
    private final RecoveryProperties properties;
    private final Counter recovered;
    private final AtomicBoolean recoveredAfterStart = new AtomicBoolean();

    PendingOrderSweeper(Orders orders, PlacingOrder placing, RecoveryProperties properties, MeterRegistry meters) {
        this.orders = orders;
        this.placing = placing;
        this.properties = properties;
        this.recovered = Counter.builder("agora.orders.recovered")
                .description("Orders left PENDING that recovery brought to a final state")
                .register(meters);
    }

    /**
     * A backlog (orders left PENDING while the catalog was away) is worked off batch after batch in one sweep
     * rather than one batch per interval; a batch in which no order could be finished (the catalog is still
     * away) ends the sweep until the next interval.
     */
    @Scheduled(initialDelay = 0, fixedDelayString = "${agora.orders.recovery.interval:2s}")
    void sweep() {
        Duration age = recoveredAfterStart.getAndSet(true) ? properties.minAge() : Duration.ZERO;
        int driven = 0;
        int batches = 0;
        long finished = 0;
        List<Order> pending;
        long finishedInBatch;
        do {
            pending = orders.pendingFor(age, properties.batch());
            finishedInBatch = pending.stream()
                    .map(placing::drive)
                    .filter(o -> !o.isPending())
                    .count();
            driven += pending.size();
            finished += finishedInBatch;
            recovered.increment(finishedInBatch);
            batches++;
        } while (pending.size() == properties.batch() && finishedInBatch > 0);
        if (driven == 0) return;
        log.info(
                "Recovery drove {} pending orders in {} batch(es), {} reached a final state",
                driven,
                batches,
                finished);
    }
}
