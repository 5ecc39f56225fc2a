package dev.agora.exchange.support;

import dev.agora.common.leader.LeaseSettings;
import dev.agora.exchange.store.ExchangeStore;
import jakarta.persistence.EntityManagerFactory;
import java.util.Locale;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.orm.jpa.LocalContainerEntityManagerFactoryBean;
import org.springframework.orm.jpa.vendor.HibernateJpaVendorAdapter;

/**
 * Stores for tests that run the engine without Spring: the exchange's persistence unit made as Boot makes it (the
 * store package's entities, Hibernate, the settings of application.yml), and the batch writer the service would use.
 * {@code -Dagora.exchange.store.writer=jdbc} runs every test, in process and in-test exchanges alike, with the JDBC
 * writer instead of the default Hibernate one.
 */
public final class TestStores {

    private TestStores() {}

    /** The writer of this test run: the service's default unless the system property names the other one. */
    public static ExchangeStore.Writer writer() {
        return ExchangeStore.Writer.valueOf(
                System.getProperty("agora.exchange.store.writer", "hibernate").toUpperCase(Locale.ROOT));
    }

    /** The exchange's entities on {@code dataSource}; the caller closes it. */
    public static EntityManagerFactory entities(DataSource dataSource) {
        LocalContainerEntityManagerFactoryBean factory = new LocalContainerEntityManagerFactoryBean();
        factory.setDataSource(dataSource);
        factory.setPackagesToScan("dev.agora.exchange.store");
        factory.setJpaVendorAdapter(new HibernateJpaVendorAdapter());
        factory.setJpaPropertyMap(Map.of(
                "hibernate.jdbc.batch_size", "256",
                "hibernate.order_inserts", "true",
                "hibernate.order_updates", "true",
                "hibernate.hbm2ddl.auto", "none"));
        factory.afterPropertiesSet();
        return factory.getObject();
    }

    /** A store on {@code dataSource} (unpooled) writing with this run's writer, its entities on the same source. */
    public static ExchangeStore store(DataSource dataSource, EntityManagerFactory entities, LeaseSettings lease) {
        return new ExchangeStore(dataSource, entities, lease, writer());
    }
}
