package dev.agora.common.clock;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * One clock for the cluster: every service with a database measures its clock against the database's and reports
 * itself not ready while the two are further apart than half a second (each service names the {@code clock} check in
 * its readiness group). Hosts keep time with NTP; this notices when that fails.
 */
@AutoConfiguration(afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@EnableConfigurationProperties(ClockProperties.class)
public class ClockAutoConfiguration {

    /** The instance's own clock: the system's, moved by {@code agora.clock.skew} in tests that want it wrong. */
    @Bean
    @ConditionalOnMissingBean(Clock.class)
    Clock agoraClock(ClockProperties properties) {
        return properties.skew().isZero() ? Clock.systemUTC() : Clock.offset(Clock.systemUTC(), properties.skew());
    }

    /** Named {@code clock} in the health endpoint and readiness group; binds {@code agora.clock.offset} too. */
    @Bean
    DatabaseClock clockHealthIndicator(
            ObjectProvider<DataSource> database,
            Clock agoraClock,
            ClockProperties properties,
            ObjectProvider<MeterRegistry> meters) {
        return new DatabaseClock(database, agoraClock, properties, meters);
    }
}
