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
                        "AGORA_CLIENTS_EXCHANGE_SERVICE_NOT_IDEMPOTENT_TIMEOUT", "9s",
                        "AGORA_CLIENTS_EXCHANGE_SERVICE_MAX_CONCURRENT_CALLS", "4"),
                Map.of(
                        "agora.clients.catalog-service.timeout", "2s",
                        "agora.clients.exchange-service.timeout", "500ms"));

        assertThat(clients.clients()).containsOnlyKeys("catalog-service", "exchange-service");
        AgoraClients.Settings catalog = clients.of("catalog-service");
        assertThat(catalog.timeout()).isEqualTo(Duration.ofSeconds(7));
        assertThat(catalog.maxConcurrentCalls()).as("the default").isEqualTo(200);
        assertThat(catalog.notIdempotentTimeout()).as("the timeout").isEqualTo(Duration.ofSeconds(7));
        AgoraClients.Settings exchange = clients.of("exchange-service");
        assertThat(exchange.notIdempotentTimeout()).isEqualTo(Duration.ofSeconds(9));
        assertThat(exchange.maxConcurrentCalls()).isEqualTo(4);
        assertThat(exchange.timeout()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void aServiceNobodyConfiguredGetsTheDefaults() {
        AgoraClients clients = bind(Map.of(), Map.of());

        assertThat(clients.of("order-service").timeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(clients.of("order-service").notIdempotentTimeout()).isEqualTo(Duration.ofSeconds(2));
    }

    private static AgoraClients bind(Map<String, Object> environment, Map<String, Object> application) {
        Binder binder = new Binder(ConfigurationPropertySources.from(List.of(
                new SystemEnvironmentPropertySource(
                        StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, environment),
                new MapPropertySource("application.yml", application))));
        return binder.bindOrCreate("agora", Bindable.of(AgoraClients.class));
    }
}
