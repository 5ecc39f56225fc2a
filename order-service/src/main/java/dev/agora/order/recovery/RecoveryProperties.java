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
 */
@ConfigurationProperties("agora.orders.recovery")
record RecoveryProperties(
        @DefaultValue("2s") Duration interval, @DefaultValue("5s") Duration minAge, @DefaultValue("200") int batch) {}
