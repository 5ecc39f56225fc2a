package dev.agora.exchange.support;

import dev.agora.exchange.store.ExchangeStore;
import dev.agora.exchange.store.leader.LeaseSettings;
import dev.agora.local.postgres.PostgresServer;
import jakarta.persistence.EntityManagerFactory;
import java.util.Map;
import java.util.Properties;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.orm.jpa.LocalContainerEntityManagerFactoryBean;
import org.springframework.orm.jpa.vendor.HibernateJpaVendorAdapter;

/**
 * Stores for tests that run the engine without Spring: the exchange's persistence unit made as Boot makes it (the
 * store package's entities, Hibernate, the settings of application.yml).
 */
public final class TestStores {

    private TestStores() {}

    /**
     * An unpooled source on {@code url} whose sessions are named {@code session} in {@code pg_stat_activity}, so a test
     * can find what they wait for; more connection properties go into {@code getConnectionProperties()}.
     */
    public static DriverManagerDataSource dataSource(PostgresServer postgres, String url, String session) {
        DriverManagerDataSource dataSource = new DriverManagerDataSource(url, postgres.username(), postgres.password());
        Properties properties = new Properties();
        properties.setProperty("ApplicationName", session);
        dataSource.setConnectionProperties(properties);
        return dataSource;
    }

    /** The exchange's entities on {@code dataSource}; the caller closes it. */
    public static EntityManagerFactory entities(DataSource dataSource) {
        LocalContainerEntityManagerFactoryBean factory = new LocalContainerEntityManagerFactoryBean();
        factory.setDataSource(dataSource);
        factory.setPackagesToScan("dev.agora.exchange.store");
        factory.setJpaVendorAdapter(new HibernateJpaVendorAdapter());
        factory.setJpaPropertyMap(Map.of("hibernate.hbm2ddl.auto", "none"));
        factory.afterPropertiesSet();
        return factory.getObject();
    }

    /** A store on {@code dataSource} (unpooled), its entities on the same source. */
    public static ExchangeStore store(DataSource dataSource, EntityManagerFactory entities, LeaseSettings lease) {
        return new ExchangeStore(dataSource, entities, lease);
    }
}
