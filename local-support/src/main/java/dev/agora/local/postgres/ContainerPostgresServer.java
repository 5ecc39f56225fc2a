package dev.agora.local.postgres;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

/** PostgreSQL in a Testcontainers container, used by tests when a Docker engine is reachable. */
final class ContainerPostgresServer implements PostgresServer {

    private final PostgreSQLContainer container;

    private ContainerPostgresServer(PostgreSQLContainer container) {
        this.container = container;
    }

    static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    static ContainerPostgresServer start() {
        PostgreSQLContainer container = new PostgreSQLContainer("postgres:17-alpine")
                .withUsername("postgres")
                .withPassword("postgres")
                .withCommand("postgres", "-c", "max_connections=400");
        container.start();
        return new ContainerPostgresServer(container);
    }

    @Override
    public String jdbcUrl(String database) {
        String admin = container.getJdbcUrl();
        PostgresServer.createDatabaseIfMissing(admin, username(), password(), database);
        return admin.substring(0, admin.lastIndexOf('/') + 1) + database;
    }

    @Override
    public String username() {
        return container.getUsername();
    }

    @Override
    public String password() {
        return container.getPassword();
    }

    @Override
    public void close() {
        container.stop();
    }
}
