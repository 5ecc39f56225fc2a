package dev.agora.order.recovery;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;
import org.springframework.stereotype.Component;

/**
 * Which instance sweeps ({@code /actuator/health}, component {@code recovery}): always UP, since an instance that does
 * not hold the lock is as healthy as one that does; the details say whether this one holds it, how often it took it,
 * and what it swept. Not part of readiness.
 */
@Component("recovery")
class SweeperHealthIndicator implements HealthIndicator {

    private final LockRegistryLeaderInitiator leadership;
    private final PendingOrderSweeper sweeper;

    SweeperHealthIndicator(LockRegistryLeaderInitiator sweeperLeadership, PendingOrderSweeper sweeper) {
        this.leadership = sweeperLeadership;
        this.sweeper = sweeper;
    }

    @Override
    public Health health() {
        return Health.up()
                .withDetail("sweeper", leadership.getContext().isLeader())
                .withDetail("elections", sweeper.elections())
                .withDetail("holder", RecoveryConfiguration.HOLDER)
                .withDetail("sweeps", sweeper.sweeps())
                .withDetail("recovered", sweeper.recovered())
                .build();
    }
}
