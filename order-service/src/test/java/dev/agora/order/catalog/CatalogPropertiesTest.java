package dev.agora.order.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.common.client.FailoverSettings;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class CatalogPropertiesTest {

    private static FailoverSettings bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties))
                .bindOrCreate("agora.catalog", CatalogProperties.class)
                .failoverSettings();
    }

    @Test
    void reservationsAreHedgedWithinTheSameBudgetAsTheFrontendsCallsByDefault() {
        FailoverSettings settings = bind(Map.of());

        assertThat(settings.hedgeBudgetPercent()).isEqualTo(10);
        assertThat(settings.hedgeBudgetBurst()).isEqualTo(10);
        assertThat(settings.hedgeDelay()).isEqualTo(Duration.ofMillis(150));
    }

    @Test
    void theHedgeBudgetOfReservationsIsConfigurable() {
        FailoverSettings settings = bind(Map.of(
                "agora.catalog.hedge-budget-percent", "25",
                "agora.catalog.hedge-budget-burst", "3",
                "agora.catalog.read-timeout", "1s"));

        assertThat(settings.hedgeBudgetPercent()).isEqualTo(25);
        assertThat(settings.hedgeBudgetBurst()).isEqualTo(3);
        assertThat(settings.readTimeout()).isEqualTo(Duration.ofSeconds(1));
    }
}
