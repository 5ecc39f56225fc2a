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
 * @param leadership the lock that lets one instance at a time sweep
 */
@ConfigurationProperties("agora.orders.recovery")
record RecoveryProperties(
        @DefaultValue("2s") Duration interval,
        @DefaultValue("5s") Duration minAge,
        @DefaultValue("200") int batch,
        @DefaultValue Leadership leadership) {

    /**
     * The lock in PostgreSQL that makes one order instance the sweeper ({@code agora.orders.recovery.leadership.*}).
     *
     * @param lease the lock's key
     * @param ttl how long the lock lasts unrenewed; a killed sweeper is replaced after at most this long. Its expiry is
     *     written by the instances' clocks, which the clock check keeps within half a second of each other
     * @param renewEvery how often the sweeper renews it
     * @param pollEvery how often the other instances look whether it is free
     */
    record Leadership(
            @DefaultValue("order-recovery") String lease,
            @DefaultValue("3s") Duration ttl,
            @DefaultValue("500ms") Duration renewEvery,
            @DefaultValue("250ms") Duration pollEvery) {}
}
