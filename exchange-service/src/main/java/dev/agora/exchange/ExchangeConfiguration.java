package dev.agora.exchange;

import dev.agora.common.leader.LeaseSettings;
import dev.agora.exchange.history.OrderHistory;
import dev.agora.exchange.sequencer.Sequencer;
import dev.agora.exchange.store.ExchangeStore;
import dev.agora.exchange.store.JdbcStoredOrders;
import dev.agora.exchange.xml.XmlProtocolServer;
import dev.agora.exchange.xml.XmlTls;
import io.netty.handler.ssl.SslContext;
import java.util.Properties;
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
    ExchangeStore exchangeStore(DataSourceProperties dataSource, ExchangeProperties properties) {
        // Unpooled on purpose: the lease is freed at once when its holder's session ends, which a pool would keep open.
        DriverManagerDataSource unpooled = new DriverManagerDataSource(
                dataSource.determineUrl(), dataSource.determineUsername(), dataSource.determinePassword());
        Properties connection = new Properties();
        connection.setProperty("reWriteBatchedInserts", "true");
        connection.setProperty("ApplicationName", "exchange-sequencer");
        connection.setProperty("tcpKeepAlive", "true");
        unpooled.setConnectionProperties(connection);
        ExchangeProperties.Leadership leadership = properties.leadership();
        return new ExchangeStore(
                unpooled,
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
        return new ExchangeRuntime(store, history, properties, xmlTls(properties, bundles));
    }

    /**
     * The XML protocol's TLS context from the named Spring Boot SSL bundle: the server's key and certificate from its
     * key store, the CA of client certificates from its trust store, and a client certificate required.
     */
    private static SslContext xmlTls(ExchangeProperties properties, ObjectProvider<SslBundles> bundles)
            throws SSLException {
        if (!properties.tls().enabled()) return null;
        SslBundle bundle = bundles.getObject().getBundle(properties.tls().bundle());
        return XmlTls.serverContext(
                bundle.getManagers().getKeyManagerFactory(),
                bundle.getManagers().getTrustManagerFactory());
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
