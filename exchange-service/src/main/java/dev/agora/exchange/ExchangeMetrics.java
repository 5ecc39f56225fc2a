package dev.agora.exchange;

import dev.agora.exchange.history.OrderHistory;
import dev.agora.exchange.sequencer.Sequencer;
import dev.agora.exchange.store.ExchangeStore;
import dev.agora.exchange.xml.XmlProtocolServer;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;
import org.springframework.stereotype.Component;

/**
 * The exchange's metrics. Group commit: commands per batch, apply and commit time per batch (the batch size is what
 * makes throughput scale: one fsync is shared by every command of a batch). And every bounded pool and queue, with
 * its depth and what it refused: the sequencer's queue, the batches waiting for the committer, the order-history
 * readers' queue, the XML server's connections (in all and per address), the reply bytes waiting for slow clients,
 * the event loops' task queue, and each kind of timeout. And the lease: whether this instance leads, at which epoch.
 */
@Component
class ExchangeMetrics {

    ExchangeMetrics(
            Sequencer sequencer,
            OrderHistory history,
            XmlProtocolServer xml,
            ExchangeStore store,
            MeterRegistry registry) {
        // agora.leader{lease="exchange"}: 1 on the active instance; agora.leader.epoch, agora.leader.elections.
        store.leadership().registerMetrics(registry);
        DistributionSummary batchSize = DistributionSummary.builder("agora.exchange.batch.commands")
                .description("Commands applied and committed together")
                .publishPercentiles(0.5, 0.9, 0.99)
                .register(registry);
        Timer apply = Timer.builder("agora.exchange.batch.apply")
                .description("Time to apply a batch to the in-memory engine")
                .publishPercentiles(0.5, 0.99)
                .register(registry);
        // A histogram rather than client-side percentiles, so dashboards can aggregate across instances.
        Timer commit = Timer.builder("agora.exchange.batch.commit")
                .description("Time to make a batch durable in PostgreSQL (one statement, one WAL flush)")
                .publishPercentileHistogram()
                .register(registry);
        FunctionCounter.builder("agora.exchange.commands", sequencer, Sequencer::commandsApplied)
                .description("Commands applied by the sequencer (exchange throughput)")
                .register(registry);
        sequencer.observeBatches((commands, applyNanos, commitNanos) -> {
            batchSize.record(commands);
            apply.record(applyNanos, TimeUnit.NANOSECONDS);
            if (commitNanos > 0) commit.record(commitNanos, TimeUnit.NANOSECONDS);
        });

        // The sequencer's queue and the committer's hand-over.
        Gauge.builder("agora.exchange.queue.depth", sequencer, Sequencer::queued)
                .description("Commands waiting for the sequencer")
                .register(registry);
        Gauge.builder("agora.exchange.queue.capacity", sequencer, Sequencer::queueCapacity)
                .description("Most commands that may wait for the sequencer")
                .register(registry);
        FunctionCounter.builder("agora.exchange.queue.rejected", sequencer, Sequencer::rejected)
                .description("Commands refused because the sequencer's queue was full")
                .register(registry);
        Gauge.builder("agora.exchange.commit.pending", sequencer, Sequencer::batchesAwaitingCommit)
                .description("Batches applied and not yet durable (at most two: one committing, one waiting)")
                .register(registry);
        Gauge.builder("agora.exchange.orders.held", sequencer, Sequencer::ordersHeld)
                .description("Orders in memory: the open ones and the recently closed ones kept for queries")
                .register(registry);
        Gauge.builder("agora.exchange.orders.closed.kept.by.accounts", sequencer, Sequencer::closedOrdersKeptByAccounts)
                .description("Closed orders kept as their accounts' latest (at most closed-orders-kept-per-account"
                        + " each; many of them also among the recently closed ones)")
                .register(registry);

        // Reads of closed orders.
        Gauge.builder("agora.exchange.history.queue.depth", history, OrderHistory::queued)
                .description("Reads of closed orders waiting for a reader thread")
                .register(registry);
        FunctionCounter.builder("agora.exchange.history.rejected", history, OrderHistory::rejected)
                .description("Reads of closed orders refused because their queue was full")
                .register(registry);

        // The XML server.
        Gauge.builder("agora.exchange.xml.connections", xml, XmlProtocolServer::openConnections)
                .description("Open XML protocol connections")
                .register(registry);
        Gauge.builder("agora.exchange.xml.client.addresses", xml, XmlProtocolServer::clientAddresses)
                .description("Client addresses with open XML protocol connections")
                .register(registry);
        FunctionCounter.builder("agora.exchange.xml.refused", xml, server -> server.refusedConnections(false))
                .tag("reason", "max-connections")
                .description("XML connections refused: over a cap, or while replies held too many bytes")
                .register(registry);
        FunctionCounter.builder("agora.exchange.xml.refused", xml, server -> server.refusedConnections(true))
                .tag("reason", "max-connections-per-address")
                .register(registry);
        FunctionCounter.builder("agora.exchange.xml.refused", xml, XmlProtocolServer::refusedForReplyBudget)
                .tag("reason", "max-pending-reply-size")
                .register(registry);
        Gauge.builder("agora.exchange.xml.reply.pending.bytes", xml, XmlProtocolServer::pendingReplyBytes)
                .description("Reply bytes written and not yet taken by their clients")
                .baseUnit("bytes")
                .register(registry);
        Gauge.builder("agora.exchange.xml.io.tasks", xml, XmlProtocolServer::pendingIoTasks)
                .description("Tasks waiting in the XML server's event loops")
                .register(registry);
        for (String kind : new String[] {"read", "deadline", "reply", "write", "idle"}) {
            FunctionCounter.builder("agora.exchange.xml.timeouts", xml, server -> server.timeouts(kind))
                    .tag("kind", kind)
                    .description("XML connections that ran out of time, by phase")
                    .register(registry);
        }
    }
}
