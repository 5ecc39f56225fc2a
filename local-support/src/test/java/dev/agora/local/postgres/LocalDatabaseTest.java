package dev.agora.local.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.DriverManager;
import org.junit.jupiter.api.Test;

class LocalDatabaseTest {

    @Test
    void sharedServerHandsOutSeparateDurableDatabases() throws Exception {
        PostgresServer server = SharedPostgres.get();
        String first = server.jdbcUrl("common_first");
        String second = server.jdbcUrl("common_second");
        assertThat(first).isNotEqualTo(second);

        try (var connection = DriverManager.getConnection(first, server.username(), server.password());
                var statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS probe (id int)");
            var fsync = statement.executeQuery("SHOW fsync");
            fsync.next();
            assertThat(fsync.getString(1)).isEqualTo("on");
            var commit = statement.executeQuery("SHOW synchronous_commit");
            commit.next();
            assertThat(commit.getString(1)).isEqualTo("on");
        }
        try (var connection = DriverManager.getConnection(second, server.username(), server.password());
                var rows = connection
                        .createStatement()
                        .executeQuery("SELECT count(*) FROM pg_tables WHERE tablename = 'probe'")) {
            rows.next();
            assertThat(rows.getInt(1)).as("databases are separate").isZero();
        }
        // Asking again for an existing database is harmless.
        assertThat(server.jdbcUrl("common_first")).isEqualTo(first);
    }
}
