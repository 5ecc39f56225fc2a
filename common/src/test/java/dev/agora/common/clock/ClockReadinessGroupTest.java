package dev.agora.common.clock;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** The clock check joins whatever a service's readiness group includes, and stays out when it is turned off. */
class ClockReadinessGroupTest {

    @Test
    void joinsSpringBootsDefaultGroup() {
        assertThat(readinessAfterwards(Map.of())).isEqualTo("readinessState,clock");
    }

    @Test
    void joinsAServicesOwnChecksAsTheExchangeListsThem() {
        assertThat(readinessAfterwards(Map.of(ClockReadiness.READINESS_INCLUDE, "readinessState,exchange")))
                .isEqualTo("readinessState,exchange,clock");
        assertThat(readinessAfterwards(Map.of(
                        ClockReadiness.READINESS_INCLUDE + "[0]", "readinessState",
                        ClockReadiness.READINESS_INCLUDE + "[1]", "exchange")))
                .isEqualTo("readinessState,exchange,clock");
    }

    @Test
    void isNotListedTwice() {
        assertThat(readinessAfterwards(Map.of(ClockReadiness.READINESS_INCLUDE, "clock,readinessState")))
                .isEqualTo("clock,readinessState");
    }

    private static String readinessAfterwards(Map<String, Object> configured) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addLast(new MapPropertySource("service", configured));
        new ClockReadiness().postProcessEnvironment(environment, new SpringApplication());
        return environment.getProperty(ClockReadiness.READINESS_INCLUDE);
    }
}
