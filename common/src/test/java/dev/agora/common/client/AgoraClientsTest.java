package dev.agora.common.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Client settings come from the application's configuration and, overriding it, from environment variables in Spring's
 * relaxed form: no service declares an alias of its own for them.
 */
class AgoraClientsTest {

    @Test
    void environmentVariablesInTheRelaxedFormOverrideAServicesSettings() {
        AgoraClients clients = bind(
                Map.of(
                        "AGORA_CLIENTS_CATALOG_SERVICE_TIMEOUT", "7s",
                        "AGORA_CLIENTS_EXCHANGE_SERVICE_RETRY_INTERVAL", "250ms",
                        "AGORA_CLIENTS_EXCHANGE_SERVICE_ATTEMPTS", "4"),
                Map.of(
                        "agora.clients.catalog-service.timeout", "2s",
                        "agora.clients.catalog-service.hedge-after", "50ms",
                        "agora.clients.exchange-service.timeout", "500ms"));

        assertThat(clients.clients()).containsOnlyKeys("catalog-service", "exchange-service");
        ClientSettings catalog = clients.of("catalog-service");
        assertThat(catalog.timeout()).isEqualTo(Duration.ofSeconds(7));
        assertThat(catalog.hedgeAfter()).isEqualTo(Duration.ofMillis(50));
        assertThat(catalog.attempts()).as("the default").isEqualTo(3);
        ClientSettings exchange = clients.of("exchange-service");
        assertThat(exchange.retryInterval()).isEqualTo(Duration.ofMillis(250));
        assertThat(exchange.attempts()).isEqualTo(4);
        assertThat(exchange.timeout()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void aServiceNobodyConfiguredGetsTheDefaults() {
        AgoraClients clients = bind(Map.of(), Map.of());

        assertThat(clients.of("order-service").timeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(clients.of("order-service").connectTimeout()).isEqualTo(Duration.ofMillis(200));
        assertThat(clients.of("order-service").hedgeAfter()).isZero();
    }

    private static AgoraClients bind(Map<String, Object> environment, Map<String, Object> application) {
        Binder binder = new Binder(ConfigurationPropertySources.from(List.of(
                new SystemEnvironmentPropertySource(
                        StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, environment),
                new MapPropertySource("application.yml", application))));
        return binder.bindOrCreate("agora", Bindable.of(AgoraClients.class));
    }
}
