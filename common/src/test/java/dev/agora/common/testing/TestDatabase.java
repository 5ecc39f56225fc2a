package dev.agora.common.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * A real PostgreSQL for common's own tests (zonky's embedded server, one per test JVM). The services' tests use
 * local-support's shared server; common cannot, since local-support is built on common.
 */
public final class TestDatabase {

    private static EmbeddedPostgres server;

    private TestDatabase() {}

    /** JDBC URL of a database of that name, created on first use. */
    public static synchronized String jdbcUrl(String database) {
        if (!database.matches("[a-z][a-z0-9_]{0,62}")) throw new IllegalArgumentException(database);
        EmbeddedPostgres postgres = server();
        try (Connection admin = DriverManager.getConnection(postgres.getJdbcUrl("postgres", "postgres"));
                var exists = admin.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
            exists.setString(1, database);
            try (var rows = exists.executeQuery()) {
                if (!rows.next()) {
                    try (var create = admin.createStatement()) {
                        create.execute("CREATE DATABASE " + database);
                    }
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not create database " + database, e);
        }
        return postgres.getJdbcUrl("postgres", database);
    }

    public static String username() {
        return "postgres";
    }

    public static String password() {
        return "postgres";
    }

    private static EmbeddedPostgres server() {
        if (server == null) {
            try {
                server = EmbeddedPostgres.builder().start();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            EmbeddedPostgres started = server;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    started.close();
                } catch (IOException ignored) {
                    // the JVM is exiting
                }
            }));
        }
        return server;
    }
}
