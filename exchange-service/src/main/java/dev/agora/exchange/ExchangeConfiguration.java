package dev.agora.exchange;

import dev.agora.exchange.history.OrderHistory;
import dev.agora.exchange.sequencer.Sequencer;
import dev.agora.exchange.store.ExchangeStore;
import dev.agora.exchange.store.JdbcStoredOrders;
import dev.agora.exchange.store.leader.LeaseSettings;
import dev.agora.exchange.xml.XmlProtocolServer;
import dev.agora.exchange.xml.XmlTls;
import io.netty.handler.ssl.SslContext;
import jakarta.persistence.EntityManagerFactory;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.util.Properties;
import java.util.function.Supplier;
import javax.net.ssl.SSLException;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import tools.jackson.core.StreamWriteFeature;

/** Wires the engine runtime: store, order history, sequencer, XML protocol server. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ExchangeProperties.class)
class ExchangeConfiguration {

    @Bean(destroyMethod = "close")
    ExchangeStore exchangeStore(
            DataSourceProperties dataSource, EntityManagerFactory entities, ExchangeProperties properties) {
        // Unpooled on purpose: the lease is freed at once when its holder's session ends, which a pool would keep open.
        DriverManagerDataSource unpooled = new DriverManagerDataSource(
                dataSource.determineUrl(), dataSource.determineUsername(), dataSource.determinePassword());
        Properties connection = new Properties();
        connection.setProperty("reWriteBatchedInserts", "true");
        connection.setProperty("ApplicationName", "exchange-sequencer");
        connection.setProperty("tcpKeepAlive", "true");
        // Opening a session must not hang on a database that accepts the connection and then says nothing (a link
        // cut between this instance and PostgreSQL): the lease's thread and a takeover would wait for good. Seconds.
        connection.setProperty("connectTimeout", "5");
        connection.setProperty("loginTimeout", "5");
        unpooled.setConnectionProperties(connection);
        ExchangeProperties.Leadership leadership = properties.leadership();
        return new ExchangeStore(
                unpooled,
                entities,
                new LeaseSettings(
                        leadership.lease(), leadership.ttl(), leadership.renewEvery(), leadership.pollEvery()));
    }

    /** Closed orders are read through the service's (bounded) connection pool, never the sequencer's connection. */
    @Bean(destroyMethod = "close")
    OrderHistory orderHistory(DataSource dataSource, ExchangeProperties properties) {
        // An execution is at least ~50 bytes of reply: reading more than fit into one reply would be wasted.
        int maxExecutions =
                Math.toIntExact(Math.max(1, properties.maxReplySize().toBytes() / 50));
        return new OrderHistory(
                new JdbcStoredOrders(dataSource),
                maxExecutions,
                properties.historyThreads(),
                properties.historyQueueCapacity());
    }

    /** Exact decimals go out as written ({@code 0.0000001}, never {@code 1E-7}). */
    @Bean
    JsonMapperBuilderCustomizer plainDecimals() {
        return builder -> builder.enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN);
    }

    @Bean
    ExchangeRuntime exchangeRuntime(
            ExchangeStore store,
            OrderHistory history,
            ExchangeProperties properties,
            ObjectProvider<SslBundles> bundles)
            throws SSLException {
        return new ExchangeRuntime(store, history, properties, xmlTls(properties.tls(), bundles::getObject));
    }

    /**
     * The XML protocol's TLS context from the named Spring Boot SSL bundle: the server's key and certificate from its
     * key store, the CA of client certificates from its trust store, and a client certificate required. A bundle
     * without a trust store (or with an empty one) is refused: the JDK would then check client certificates against
     * its own public CAs, and any certificate one of them issued would get in.
     */
    static SslContext xmlTls(ExchangeProperties.Tls tls, Supplier<SslBundles> bundles) throws SSLException {
        if (!tls.enabled()) return null;
        String name = tls.bundle();
        SslBundle bundle = bundles.get().getBundle(name);
        if (trustedCertificates(bundle.getStores().getTrustStore()) == 0) {
            throw new IllegalStateException("Refusing to start: the XML protocol's SSL bundle '" + name
                    + "' (agora.exchange.tls.bundle) has no trust store with the CA of client certificates, and"
                    + " client certificates are never checked against the JDK's public CAs. Give the bundle one"
                    + " (spring.ssl.bundle.pem." + name + ".truststore.certificate or spring.ssl.bundle.jks." + name
                    + ".truststore.location).");
        }
        return XmlTls.serverContext(
                bundle.getManagers().getKeyManagerFactory(),
                bundle.getManagers().getTrustManagerFactory());
    }

    private static int trustedCertificates(KeyStore trustStore) {
        if (trustStore == null) return 0;
        try {
            return trustStore.size();
        } catch (KeyStoreException e) {
            throw new IllegalStateException("The XML protocol's trust store could not be read", e);
        }
    }

    @Bean
    Sequencer sequencer(ExchangeRuntime runtime) {
        return runtime.sequencer();
    }

    @Bean
    XmlProtocolServer xmlProtocolServer(ExchangeRuntime runtime) {
        return runtime.xmlServer();
    }
}
