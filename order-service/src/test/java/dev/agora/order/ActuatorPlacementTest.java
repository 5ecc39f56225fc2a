package dev.agora.order;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.common.security.testing.ServiceSettings;
import org.junit.jupiter.api.Test;

/**
 * Actuator (health details, metrics, prometheus) and this service's API description stay off the service port in
 * every profile but {@code local}: actuator moves to management port 9000 (what compose scrapes), and
 * {@code /v3/api-docs} is not served. Common's ManagementPortTest shows a port of its own leaves only the probes on
 * the service port.
 */
class ActuatorPlacementTest {

    @Test
    void outsideLocalActuatorHasAPortOfItsOwnAndTheApiDescriptionIsOff() {
        for (String profile : new String[] {"default", "prod"}) {
            ServiceSettings settings = ServiceSettings.inProfile(profile);
            assertThat(settings.managementPort()).as(profile).isEqualTo(9000);
            assertThat(settings.apiDocs()).as(profile).isFalse();
        }
    }

    @Test
    void localRunsKeepBothOnTheServicePort() {
        ServiceSettings local = ServiceSettings.inProfile("local");
        assertThat(local.managementPort()).isNull();
        assertThat(local.apiDocs()).isTrue();
    }
}
