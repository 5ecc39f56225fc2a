package dev.agora.frontend.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.common.security.testing.ServiceSettings;
import org.junit.jupiter.api.Test;

/**
 * Actuator (health details, metrics, prometheus) stays off the public port in every profile but {@code local}: it
 * moves to management port 9000, which compose scrapes and no edge publishes. The frontend's {@code /v3/api-docs}
 * describes the public API for its clients and stays on the service port in every profile.
 */
class ActuatorPlacementTest {

    @Test
    void outsideLocalActuatorHasAPortOfItsOwnAndThePublicApiDescriptionStays() {
        for (String profile : new String[] {"default", "prod"}) {
            ServiceSettings settings = ServiceSettings.inProfile(profile);
            assertThat(settings.managementPort()).as(profile).isEqualTo(9000);
            assertThat(settings.apiDocs()).as(profile).isTrue();
        }
    }

    @Test
    void localRunsKeepActuatorOnTheServicePort() {
        ServiceSettings local = ServiceSettings.inProfile("local");
        assertThat(local.managementPort()).isNull();
        assertThat(local.apiDocs()).isTrue();
    }
}
