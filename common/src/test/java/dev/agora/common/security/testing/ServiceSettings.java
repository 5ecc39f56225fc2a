package dev.agora.common.security.testing;

import java.util.Map;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * A service's settings as Spring Boot reads them from its own {@code application.yml} and profile files for a
 * profile (the test's class path is the service's), without starting it: for tests of what a profile turns on
 * where starting the service in that profile would need production secrets.
 */
public final class ServiceSettings {

    private final Binder binder;

    private ServiceSettings(Binder binder) {
        this.binder = binder;
    }

    public static ServiceSettings inProfile(String profile) {
        StandardEnvironment environment = new StandardEnvironment();
        // Only the files speak: an operator's variable in the test's environment must not decide the answer.
        environment.getPropertySources().remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
        environment
                .getPropertySources()
                .addFirst(new MapPropertySource("profile", Map.of("spring.profiles.active", profile)));
        ConfigDataEnvironmentPostProcessor.applyTo(environment);
        return new ServiceSettings(Binder.get(environment));
    }

    /** {@code management.server.port}; null when actuator shares the service port. */
    public Integer managementPort() {
        return binder.bind("management.server.port", Integer.class).orElse(null);
    }

    /** Whether springdoc serves {@code /v3/api-docs} (its default: yes). */
    public boolean apiDocs() {
        return binder.bind("springdoc.api-docs.enabled", Boolean.class).orElse(true);
    }
}
