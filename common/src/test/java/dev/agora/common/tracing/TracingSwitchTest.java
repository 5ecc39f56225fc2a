package dev.agora.common.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** Traces cost nothing unless switched on: the tracing auto-configurations are left out, and only then. */
class TracingSwitchTest {

    private static StandardEnvironment environment(Map<String, Object> properties) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
        new TracingSwitch().postProcessEnvironment(environment, new SpringApplication());
        return environment;
    }

    @Test
    void byDefaultNoTracingAutoConfigurationIsAppliedAndExportIsOff() {
        StandardEnvironment environment = environment(Map.of());
        assertThat(environment.getProperty(TracingSwitch.EXCLUDE, String[].class))
                .containsAll(TracingSwitch.TRACING_AUTO_CONFIGURATIONS);
        assertThat(environment.getProperty("management.tracing.export.enabled")).isEqualTo("false");
    }

    @Test
    void exclusionsTheServiceMadeItselfAreKept() {
        StandardEnvironment environment = environment(Map.of(TracingSwitch.EXCLUDE, "com.example.Other"));
        assertThat(List.of(environment.getProperty(TracingSwitch.EXCLUDE, String[].class)))
                .contains("com.example.Other")
                .containsAll(TracingSwitch.TRACING_AUTO_CONFIGURATIONS);
    }

    @Test
    void switchedOnBySpringBootsOwnPropertyNothingIsLeftOut() {
        StandardEnvironment environment = environment(Map.of("management.tracing.export.enabled", "true"));
        assertThat(environment.getProperty(TracingSwitch.EXCLUDE)).isNull();
        assertThat(environment.getProperty("management.tracing.export.enabled")).isEqualTo("true");
    }

    @Test
    void switchedOnTheJdbcProxyObservesStatementsUnlessToldOtherwise() {
        assertThat(environment(Map.of("management.tracing.export.enabled", "true"))
                        .getProperty(TracingSwitch.JDBC_INCLUDES))
                .isEqualTo("QUERY");
        assertThat(environment(Map.of(
                                "management.tracing.export.enabled",
                                "true",
                                TracingSwitch.JDBC_INCLUDES,
                                "CONNECTION,QUERY,FETCH"))
                        .getProperty(TracingSwitch.JDBC_INCLUDES))
                .isEqualTo("CONNECTION,QUERY,FETCH");
        assertThat(environment(Map.of()).getProperty(TracingSwitch.JDBC_INCLUDES))
                .isNull();
    }

    @Test
    void theNamedAutoConfigurationsExistInTheLibrariesOnTheClassPath() throws Exception {
        // A renamed class in a Spring Boot upgrade would otherwise leave tracing on, silently.
        for (String name : TracingSwitch.TRACING_AUTO_CONFIGURATIONS) {
            assertThat(Class.forName(name, false, getClass().getClassLoader())).isNotNull();
        }
    }

    @Test
    void theLaunchersEnvironmentVariableSwitchesItOn() {
        StandardEnvironment environment = new StandardEnvironment();
        environment
                .getPropertySources()
                .addFirst(new SystemEnvironmentPropertySource(
                        "env", Map.of("MANAGEMENT_TRACING_EXPORT_ENABLED", "true")));
        new TracingSwitch().postProcessEnvironment(environment, new SpringApplication());
        assertThat(environment.getProperty(TracingSwitch.EXCLUDE)).isNull();
    }
}
