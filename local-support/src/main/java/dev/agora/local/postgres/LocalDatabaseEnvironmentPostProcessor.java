package dev.agora.local.postgres;

import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.StringUtils;

/**
 * When a service that owns a database is started with no {@code spring.datasource.url}, gives it a real
 * PostgreSQL database of its own on the JVM's {@link SharedPostgres}, so {@code spring-boot:run} and tests
 * need nothing installed. Deployments always set the URL, and then this does nothing.
 */
public class LocalDatabaseEnvironmentPostProcessor implements EnvironmentPostProcessor {

    /**
     * Each service's database, by {@code spring.application.name}: the names deployments and the launcher use, fixed by
     * the service rather than a setting (the order service's is not {@code order}, an SQL keyword).
     */
    static final Map<String, String> DATABASES = Map.of(
            "catalog-service", "catalog",
            "order-service", "orders",
            "frontend-service", "identity",
            "exchange-service", "exchange");

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (StringUtils.hasText(environment.getProperty("spring.datasource.url"))) return;
        if (!environment.getProperty("agora.postgres.local", Boolean.class, true)) return;
        String database = DATABASES.get(environment.getProperty("spring.application.name", ""));
        if (!StringUtils.hasText(database)) return;
        if (!SharedPostgres.available(application.getClassLoader())) return;
        PostgresServer server = SharedPostgres.get();
        environment
                .getPropertySources()
                .addFirst(new MapPropertySource(
                        "agoraLocalPostgres",
                        Map.of(
                                "spring.datasource.url", server.jdbcUrl(database),
                                "spring.datasource.username", server.username(),
                                "spring.datasource.password", server.password())));
    }
}
