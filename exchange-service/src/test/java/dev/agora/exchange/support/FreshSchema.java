package dev.agora.exchange.support;

import dev.agora.local.postgres.PostgresServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.flywaydb.core.Flyway;

/** An exchange database with nothing in it but the migrated schema, for tests that use the store directly. */
public final class FreshSchema {

    private FreshSchema() {}

    /** Drops everything in the database at {@code url} and migrates it to the exchange's current schema. */
    public static void migrate(PostgresServer postgres, String url) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url, postgres.username(), postgres.password());
                Statement statement = connection.createStatement()) {
            statement.execute("DROP SCHEMA public CASCADE");
            statement.execute("CREATE SCHEMA public");
        }
        Flyway.configure()
                .dataSource(url, postgres.username(), postgres.password())
                .load()
                .migrate();
    }
}
