package dev.agora.order.recovery;

import dev.agora.common.leader.Leadership;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * Which instance sweeps ({@code /actuator/health}, component {@code recovery}): always UP, since an instance that does
 * not hold the lease is as healthy as one that does; the details say whether this one holds it, at which epoch, and
 * what it swept. Not part of readiness.
 */
@Component("recovery")
class SweeperHealthIndicator implements HealthIndicator {

    private final Leadership leadership;
    private final PendingOrderSweeper sweeper;

    SweeperHealthIndicator(Leadership sweeperLeadership, PendingOrderSweeper sweeper) {
        this.leadership = sweeperLeadership;
        this.sweeper = sweeper;
    }

    @Override
    public Health health() {
        return Health.up()
                .withDetail("sweeper", leadership.isLeader())
                .withDetail("epoch", leadership.epoch())
                .withDetail("holder", leadership.holder())
                .withDetail("sweeps", sweeper.sweeps())
                .withDetail("recovered", sweeper.recovered())
                .build();
    }
}
