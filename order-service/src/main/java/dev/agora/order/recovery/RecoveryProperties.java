package dev.agora.order.recovery;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Recovery of orders a crash left PENDING ({@code agora.orders.recovery.*}).
 *
 * @param interval pause between sweeps
 * @param minAge how long an order must have been PENDING before a sweep takes it over from its request
 * @param leadership the lock that lets one instance at a time sweep
 */
@ConfigurationProperties("agora.orders.recovery")
record RecoveryProperties(
        @DefaultValue("2s") Duration interval,
        @DefaultValue("5s") Duration minAge,
        @DefaultValue Leadership leadership) {

    /**
     * The lock in PostgreSQL that makes one order instance the sweeper ({@code agora.orders.recovery.leadership.*}).
     *
     * @param ttl how long the lock lasts unrenewed; a killed sweeper is replaced after at most this long. Its expiry is
     *     written by the instances' clocks, which the clock check keeps within half a second of each other
     */
    record Leadership(@DefaultValue("3s") Duration ttl) {

        /** The lock's key. */
        static final String LEASE = "order-recovery";

        /** How often the sweeper renews the lock: often enough that a few late renewals do not lose it. */
        Duration renewEvery() {
            return ttl.dividedBy(6);
        }

        /** How often the other instances look whether it is free: twice per renewal. */
        Duration pollEvery() {
            return ttl.dividedBy(12);
        }
    }

    /** Orders driven per sweep: a backlog after an outage is worked off in bounded transactions. */
    static final int BATCH = 200;
}
