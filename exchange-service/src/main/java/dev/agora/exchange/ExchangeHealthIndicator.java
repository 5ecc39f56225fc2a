package dev.agora.exchange;

import dev.agora.exchange.sequencer.Sequencer;
import dev.agora.exchange.store.ExchangeStore;
import dev.agora.exchange.xml.XmlProtocolServer;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * UP only while this instance is the active exchange (it holds the lease and may be sure of it, has loaded the
 * state and listens for the XML protocol); part of the readiness group, so a standby, and a leader thawed after a
 * freeze, is live but not ready. The details name the bound TCP port, which tests and launchers read when the
 * configured port is 0, and the lease's epoch and holder.
 */
@Component("exchange")
class ExchangeHealthIndicator implements HealthIndicator {

    private final Sequencer sequencer;
    private final XmlProtocolServer xmlServer;
    private final ExchangeStore store;

    ExchangeHealthIndicator(Sequencer sequencer, XmlProtocolServer xmlServer, ExchangeStore store) {
        this.sequencer = sequencer;
        this.xmlServer = xmlServer;
        this.store = store;
    }

    @Override
    public Health health() {
        Sequencer.Role role = sequencer.role();
        boolean leads = store.leads();
        Health.Builder health =
                role == Sequencer.Role.ACTIVE && leads && xmlServer.port() > 0 ? Health.up() : Health.outOfService();
        return health.withDetail("role", role.name())
                .withDetail("tcpPort", xmlServer.port())
                .withDetail("leader", leads)
                .withDetail("epoch", store.leadership().epoch())
                .withDetail("holder", store.leadership().holder())
                .withDetail("commandsApplied", sequencer.commandsApplied())
                .withDetail("batchesCommitted", sequencer.batchesCommitted())
                .build();
    }
}
