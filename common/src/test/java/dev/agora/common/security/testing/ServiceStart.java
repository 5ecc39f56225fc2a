package dev.agora.common.security.testing;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Starts a service's application class as its {@code main} does, in this JVM, without the environment's profile,
 * secrets or database settings, and reports how the start ended: how tests prove a service refuses to start. The
 * refusals under test come while the environment is prepared, before a context, a web server or a database
 * connection exists, so a start costs milliseconds, where a process of its own cost a JVM start per case.
 */
public final class ServiceStart {

    /**
     * How the start ended: the exit code its {@code main} would have ended the JVM with (0 when it started; the
     * context is closed again at once) and what the JVM would have printed of the failure (its stack trace).
     */
    public record Exit(int code, String output) {}

    private static final List<String> CLEARED_VARIABLES =
            List.of("SPRING_PROFILES_ACTIVE", "AGORA_SECURITY_CLIENT_SECRET", "DATABASE_URL", "DATABASE_PASSWORD");

    private ServiceStart() {}

    /** Runs the application of {@code main} with these arguments, as {@code SpringApplication.run} in its main. */
    public static Exit run(Class<?> main, List<String> arguments) {
        StandardEnvironment environment = new StandardEnvironment();
        Map<String, Object> variables = new HashMap<>(environment.getSystemEnvironment());
        CLEARED_VARIABLES.forEach(variables::remove);
        environment
                .getPropertySources()
                .replace(
                        StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        new SystemEnvironmentPropertySource(
                                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
        try (ConfigurableApplicationContext started =
                new SpringApplicationBuilder(main).environment(environment).run(arguments.toArray(String[]::new))) {
            return new Exit(0, "Started " + main.getSimpleName() + " (" + started.getId() + ")");
        } catch (Throwable failure) {
            StringWriter trace = new StringWriter();
            failure.printStackTrace(new PrintWriter(trace));
            return new Exit(1, trace.toString());
        }
    }
}
