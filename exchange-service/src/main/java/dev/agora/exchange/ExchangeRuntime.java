package dev.agora.exchange;

import dev.agora.exchange.sequencer.Sequencer;
import dev.agora.exchange.store.ExchangeStore;
import dev.agora.exchange.xml.XmlProtocolServer;
import java.time.Clock;
import org.springframework.context.SmartLifecycle;

/**
 * Starts the exchange after the application context is up: the sequencer takes the advisory lock (waiting
 * as a standby while another instance holds it), loads the state, and only then opens the XML port. Stops
 * in reverse: no new connections, the batch in progress is finished, the lock is released.
 */
final class ExchangeRuntime implements SmartLifecycle {

    private final Sequencer sequencer;
    private final XmlProtocolServer xmlServer;
    private volatile boolean running;

    ExchangeRuntime(ExchangeStore store, ExchangeProperties properties) {
        Clock clock = Clock.systemUTC();
        this.sequencer = new Sequencer(
                store,
                () -> clock.instant().getEpochSecond(),
                properties.queueCapacity(),
                properties.maxBatch(),
                properties.lockPollInterval());
        this.xmlServer = new XmlProtocolServer(
                new XmlProtocolServer.Settings(
                        properties.tcpHost(),
                        properties.tcpPort(),
                        (int) properties.maxMessageSize().toBytes(),
                        properties.maxRequestChildren(),
                        properties.maxConnections(),
                        properties.readTimeout().toMillis(),
                        properties.requestDeadline().toMillis(),
                        properties.replyTimeout().toMillis(),
                        1024),
                sequencer);
        sequencer.whenActive(xmlServer::start);
    }

    Sequencer sequencer() {
        return sequencer;
    }

    XmlProtocolServer xmlServer() {
        return xmlServer;
    }

    @Override
    public void start() {
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
