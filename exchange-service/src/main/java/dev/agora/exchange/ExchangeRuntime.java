package dev.agora.exchange;

import dev.agora.exchange.history.OrderHistory;
import dev.agora.exchange.matching.MemoryLimits;
import dev.agora.exchange.sequencer.Sequencer;
import dev.agora.exchange.store.ExchangeStore;
import dev.agora.exchange.xml.XmlProtocolServer;
import io.netty.handler.ssl.SslContext;
import java.time.Clock;
import org.springframework.context.SmartLifecycle;

/**
 * Starts the exchange after the application context is up: the sequencer takes the lease (waiting as a
 * standby while another instance holds it), loads the state, and only then opens the XML port; when the lease
 * is lost, the port closes and the sequencer stands by again. Stops in reverse: no new connections, the batch
 * in progress is finished, the lease is released (a standby takes over at its next look).
 */
final class ExchangeRuntime implements SmartLifecycle {

    private final Sequencer sequencer;
    private final XmlProtocolServer xmlServer;
    private volatile boolean running;

    ExchangeRuntime(ExchangeStore store, OrderHistory history, ExchangeProperties properties, SslContext tls) {
        Clock clock = Clock.systemUTC();
        this.sequencer = new Sequencer(
                store,
                () -> clock.instant().getEpochSecond(),
                properties.queueCapacity(),
                properties.maxBatch(),
                new MemoryLimits(
                        properties.closedOrdersKept(),
                        properties.fillsKeptPerOrder(),
                        properties.closedOrdersKeptPerAccount()));
        this.xmlServer = new XmlProtocolServer(
                new XmlProtocolServer.Settings(
                        properties.tcpHost(),
                        properties.tcpPort(),
                        Math.toIntExact(properties.maxMessageSize().toBytes()),
                        Math.toIntExact(properties.maxReplySize().toBytes()),
                        properties.maxRequestChildren(),
                        properties.maxConnections(),
                        properties.maxConnectionsPerAddress(),
                        properties.maxPendingReplySize().toBytes(),
                        properties.readTimeout().toMillis(),
                        properties.requestDeadline().toMillis(),
                        properties.replyTimeout().toMillis(),
                        properties.writeTimeout().toMillis(),
                        properties.idleTimeout().toMillis(),
                        properties.ioThreads(),
                        1024,
                        tls),
                sequencer,
                history);
        sequencer.whenActive(xmlServer::start);
        // A deposed leader closes its port at once: clients and the edge's health checks go to the new leader.
        sequencer.whenInactive(() -> {
            xmlServer.close();
            xmlServer.prepare();
        });
    }

    Sequencer sequencer() {
        return sequencer;
    }

    XmlProtocolServer xmlServer() {
        return xmlServer;
    }

    @Override
    public void start() {
        // Ready to listen before the lease is known: a standby that takes over only binds.
        xmlServer.prepare();
        sequencer.start();
        running = true;
    }

    @Override
    public void stop() {
        xmlServer.close();
        sequencer.close();
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
