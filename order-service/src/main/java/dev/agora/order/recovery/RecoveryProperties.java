package dev.agora.order.recovery;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Recovery of orders a crash left PENDING ({@code agora.orders.recovery.*}).
 *
 * @param interval pause between sweeps
 * @param minAge how long an order must have been PENDING before a sweep takes it over from its request
 * @param batch orders driven per sweep
 * @param leadership the lease that lets one instance at a time sweep
 */
@ConfigurationProperties("agora.orders.recovery")
record RecoveryProperties(
        @DefaultValue("2s") Duration interval,
        @DefaultValue("5s") Duration minAge,
        @DefaultValue("200") int batch,
        @DefaultValue Leadership leadership) {

    /**
     * The lease in PostgreSQL that makes one order instance the sweeper ({@code agora.orders.recovery.leadership.*}):
     * chosen as the exchange's active instance is (common's {@code dev.agora.common.leader}).
     *
     * @param lease the lease's name (its row in {@code leader_lease})
     * @param ttl how long the lease lasts unrenewed, by the database's clock
     * @param renewEvery how often the sweeper renews it
     * @param pollEvery how often the other instances look whether it is free
     */
    record Leadership(
            @DefaultValue("order-recovery") String lease,
            @DefaultValue("1s") Duration ttl,
            @DefaultValue("200ms") Duration renewEvery,
            @DefaultValue("200ms") Duration pollEvery) {}
}
