package dev.agora.exchange;

import dev.agora.exchange.sequencer.Sequencer;
import dev.agora.exchange.xml.XmlProtocolServer;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * UP only while this instance is the active exchange (it holds the lock, has loaded the state and listens
 * for the XML protocol); part of the readiness group, so a standby is live but not ready. The details name
 * the bound TCP port, which tests and launchers read when the configured port is 0.
 */
@Component("exchange")
class ExchangeHealthIndicator implements HealthIndicator {

    private final Sequencer sequencer;
    private final XmlProtocolServer xmlServer;

    ExchangeHealthIndicator(Sequencer sequencer, XmlProtocolServer xmlServer) {
        this.sequencer = sequencer;
        this.xmlServer = xmlServer;
    }

    @Override
    public Health health() {
        Sequencer.Role role = sequencer.role();
        Health.Builder health =
                role == Sequencer.Role.ACTIVE && xmlServer.port() > 0 ? Health.up() : Health.outOfService();
        return health.withDetail("role", role.name())
                .withDetail("tcpPort", xmlServer.port())
                .withDetail("commandsApplied", sequencer.commandsApplied())
                .withDetail("batchesCommitted", sequencer.batchesCommitted())
                .build();
    }
}
