package dev.agora.common.clock;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Adds the {@code clock} check to the readiness group of every service, to whatever the service includes there
 * itself (Spring Boot's default is {@code readinessState}; the exchange adds its own), so no service has to repeat
 * it in its configuration.
 */
public class ClockReadiness implements EnvironmentPostProcessor {

    static final String READINESS_INCLUDE = "management.endpoint.health.group.readiness.include";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        Binder binder = Binder.get(environment);
        List<String> include = new ArrayList<>(
                binder.bind(READINESS_INCLUDE, Bindable.listOf(String.class)).orElse(List.of("readinessState")));
        if (include.contains("clock")) return;
        include.add("clock");
        environment
                .getPropertySources()
                .addFirst(new MapPropertySource(
                        "agoraClockReadiness", Map.of(READINESS_INCLUDE, String.join(",", include))));
    }
}
