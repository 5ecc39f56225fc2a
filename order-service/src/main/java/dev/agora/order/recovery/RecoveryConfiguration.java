package dev.agora.order.recovery;

import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.integration.leader.DefaultCandidate;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * The election of the one instance that sweeps: Spring Integration's leader initiator holding a lock row of its
 * {@code JdbcLockRegistry} in the orders database (table {@code INT_LOCK}, migration V8).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RecoveryProperties.class)
class RecoveryConfiguration {

    static final String HOLDER = UUID.randomUUID().toString();

    /**
     * Its statements run in transactions of their own, beside the JPA ones. Its client id names this instance in
     * {@code INT_LOCK} and in the health details ({@link SweeperHealthIndicator}).
     */
    @Bean
    DefaultLockRepository recoveryLocks(DataSource dataSource) {
        DefaultLockRepository locks = new DefaultLockRepository(dataSource, HOLDER);
        locks.setTransactionManager(new DataSourceTransactionManager(dataSource));
        return locks;
    }

    /** Campaigns from start-up to shutdown; stopping deletes the lock row, so another instance sweeps at once. */
    @Bean
    LockRegistryLeaderInitiator sweeperLeadership(DefaultLockRepository locks, RecoveryProperties properties) {
        RecoveryProperties.Leadership lease = properties.leadership();
        JdbcLockRegistry registry = new JdbcLockRegistry(locks, lease.ttl());
        registry.setIdleBetweenTries(lease.pollEvery());
        LockRegistryLeaderInitiator leadership = new LockRegistryLeaderInitiator(
                registry, new DefaultCandidate(HOLDER, RecoveryProperties.Leadership.LEASE));
        leadership.setHeartBeatMillis(lease.renewEvery().toMillis());
        return leadership;
    }
}
