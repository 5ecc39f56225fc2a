package dev.agora.local.postgres;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/** A running PostgreSQL server that can hand out one database per service. */
public interface PostgresServer extends AutoCloseable {

    /** JDBC URL of the named database on this server; the database is created when missing. */
    String jdbcUrl(String database);

    String username();

    String password();

    @Override
    void close();

    /** Creates {@code database} unless it exists. Names are restricted so they need no quoting rules. */
    static void createDatabaseIfMissing(String adminUrl, String user, String password, String database) {
        if (!database.matches("[a-z][a-z0-9_]{0,62}")) {
            throw new IllegalArgumentException("Database name must be lower-case letters, digits, _: " + database);
        }
        try (Connection connection = DriverManager.getConnection(adminUrl, user, password);
                var exists = connection.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
            exists.setString(1, database);
            try (var rows = exists.executeQuery()) {
                if (rows.next()) return;
            }
            try (var create = connection.createStatement()) {
                create.execute("CREATE DATABASE " + database);
            } catch (SQLException raced) {
                // 42P04 duplicate_database: another process created it first, which is what we wanted.
                if (!"42P04".equals(raced.getSQLState())) throw raced;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not create database " + database, e);
        }
    }
}
