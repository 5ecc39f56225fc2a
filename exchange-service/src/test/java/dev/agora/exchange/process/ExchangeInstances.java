package dev.agora.exchange.process;

import dev.agora.local.cluster.LocalProcesses;
import dev.agora.local.cluster.LocalProfile;
import dev.agora.local.postgres.PostgresServer;
import dev.agora.local.postgres.SharedPostgres;
import dev.agora.local.process.ServiceProcess;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Consumer;

/**
 * Exchange processes of one test class, from the module's exec jar, on one database of the test JVM's PostgreSQL
 * (emptied before each test), each with its XML port on 127.0.0.1; {@link #close()} kills them all.
 */
final class ExchangeInstances implements AutoCloseable {

    private final PostgresServer postgres = SharedPostgres.get();
    private final String database;
    private final LocalProcesses processes = new LocalProcesses(Path.of("target", "it-logs"));

    ExchangeInstances(String database) {
        this.database = database;
    }

    /** An exchange (not started) with its XML protocol on {@code tcpPort}. */
    ServiceProcess exchange(String name, int tcpPort) {
        return exchange(name, tcpPort, settings -> {});
    }

    /** Like {@link #exchange(String, int)}, set up further by {@code settings}. */
    ServiceProcess exchange(String name, int tcpPort, Consumer<ServiceProcess.Builder> settings) {
        return processes.service("exchange-service", name, exchange -> {
            // The launcher's profile: the test database's password is a development one.
            exchange.env(LocalProfile.database(postgres, database))
                    .env("AGORA_EXCHANGE_TCP_PORT", Integer.toString(tcpPort))
                    .env("AGORA_EXCHANGE_TCP_HOST", "127.0.0.1");
            settings.accept(exchange);
        });
    }

    void emptyDatabase() throws SQLException {
        try (Connection connection = connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP SCHEMA public CASCADE");
            statement.execute("CREATE SCHEMA public");
        }
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(postgres.jdbcUrl(database), postgres.username(), postgres.password());
    }

    @Override
    public void close() {
        processes.close();
    }
}
