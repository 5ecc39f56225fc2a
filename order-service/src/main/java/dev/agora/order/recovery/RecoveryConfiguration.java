package dev.agora.order.recovery;

import dev.agora.common.leader.Leadership;
import dev.agora.common.leader.LeaseSettings;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** The election of the one instance that sweeps. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RecoveryProperties.class)
class RecoveryConfiguration {

    /**
     * Campaigns from start-up to shutdown (closing releases the lease, so another instance sweeps at its next look).
     * Its session is unpooled: a killed instance's session ends with it and frees the lease at once.
     */
    @Bean(destroyMethod = "close")
    Leadership sweeperLeadership(DataSourceProperties dataSource, RecoveryProperties properties, MeterRegistry meters) {
        RecoveryProperties.Leadership lease = properties.leadership();
        Leadership leadership = new Leadership(
                new DriverManagerDataSource(
                        dataSource.determineUrl(), dataSource.determineUsername(), dataSource.determinePassword()),
                new LeaseSettings(lease.lease(), lease.ttl(), lease.renewEvery(), lease.pollEvery()),
                Leadership.holderName("order-recovery"));
        leadership.registerMetrics(meters);
        leadership.start();
        return leadership;
    }
}
