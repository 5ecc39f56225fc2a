package dev.agora.exchange;

import dev.agora.exchange.sequencer.Sequencer;
import dev.agora.exchange.store.ExchangeStore;
import dev.agora.exchange.xml.XmlProtocolServer;
import java.util.Properties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import tools.jackson.core.StreamWriteFeature;

/** Wires the engine runtime: store, sequencer, XML protocol server. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ExchangeProperties.class)
class ExchangeConfiguration {

    @Bean(destroyMethod = "close")
    ExchangeStore exchangeStore(DataSourceProperties dataSource, ExchangeProperties properties) {
        // Unpooled on purpose: the lock lives in the session, and closing must end the session.
        DriverManagerDataSource unpooled = new DriverManagerDataSource(
                dataSource.determineUrl(), dataSource.determineUsername(), dataSource.determinePassword());
        Properties connection = new Properties();
        connection.setProperty("reWriteBatchedInserts", "true");
        connection.setProperty("ApplicationName", "exchange-sequencer");
        connection.setProperty("tcpKeepAlive", "true");
        unpooled.setConnectionProperties(connection);
        return new ExchangeStore(unpooled, properties.lockKey());
    }

    /** Exact decimals go out as written ({@code 0.0000001}, never {@code 1E-7}). */
    @Bean
    JsonMapperBuilderCustomizer plainDecimals() {
        return builder -> builder.enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN);
    }

    @Bean
    ExchangeRuntime exchangeRuntime(ExchangeStore store, ExchangeProperties properties) {
        return new ExchangeRuntime(store, properties);
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
