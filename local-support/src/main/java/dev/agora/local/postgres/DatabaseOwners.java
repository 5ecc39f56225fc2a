package dev.agora.local.postgres;

import dev.agora.local.cluster.OwnerOnlyFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;

/**
 * One PostgreSQL role per service, owning its database and nothing else: a service connects as that role, which
 * may create and change its own tables and may not connect to another service's database (connecting is revoked
 * from everyone but the owner). Run as the server's superuser; safe to repeat, also on a data directory whose
 * tables an earlier run created as the superuser (they are handed to the owner).
 */
public final class DatabaseOwners {

    private static final SecureRandom RANDOM = new SecureRandom();

    /** How a service logs in to its own database. */
    public record Login(String jdbcUrl, String username, String password) {}

    private DatabaseOwners() {}

    /** The database (created when missing) and its owning role, named like it, with a new random password. */
    public static Login ensure(PostgresServer server, String database) {
        return ensure(server, database, newPassword());
    }

    /**
     * Like {@link #ensure(PostgresServer, String)}, with the password kept in {@code passwordFile} (owner-only): the
     * one found there, or a new one written there first. So a restart on the same data directory knows every role's
     * login before PostgreSQL is up ({@link #kept}), and can start the services beside it.
     */
    public static Login ensure(PostgresServer server, String database, Path passwordFile) {
        String password = readPassword(passwordFile);
        if (password == null) {
            password = newPassword();
            writeOwnerOnly(passwordFile, password);
        }
        return ensure(server, database, password);
    }

    /**
     * The login {@link #ensure(PostgresServer, String, Path)} gave {@code database} on {@code jdbcUrl}'s server, when
     * {@code passwordFile} holds its password; null otherwise. Asks nothing of the server, which may still be starting.
     */
    public static Login kept(String jdbcUrl, String database, Path passwordFile) {
        String password = readPassword(passwordFile);
        return password == null ? null : new Login(jdbcUrl, database, password);
    }

    private static Login ensure(PostgresServer server, String database, String password) {
        String url = server.jdbcUrl(database);
        String role = database;
        try (Connection admin =
                        DriverManager.getConnection(server.jdbcUrl("postgres"), server.username(), server.password());
                Statement statement = admin.createStatement()) {
            statement.execute("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '" + role
                    + "') THEN CREATE ROLE " + role + " LOGIN; END IF; END $$");
            statement.execute("ALTER ROLE " + role + " WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD '"
                    + password + "'");
            statement.execute("ALTER DATABASE " + database + " OWNER TO " + role);
            statement.execute("REVOKE CONNECT, TEMPORARY ON DATABASE " + database + " FROM PUBLIC");
            statement.execute("GRANT CONNECT, TEMPORARY ON DATABASE " + database + " TO " + role);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not make role " + role + " the owner of " + database, e);
        }
        handOverObjects(url, server, role);
        return new Login(url, role, password);
    }

    private static String newPassword() {
        byte[] secret = new byte[24];
        RANDOM.nextBytes(secret);
        return HexFormat.of().formatHex(secret);
    }

    private static String readPassword(Path file) {
        try {
            if (!Files.isRegularFile(file)) return null;
            String password = Files.readString(file).strip();
            // Only what newPassword makes: the password goes into a statement, and a changed file must not inject.
            return password.matches("[0-9a-f]{48}") ? password : null;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read " + file, e);
        }
    }

    private static void writeOwnerOnly(Path file, String password) {
        try {
            OwnerOnlyFiles.write(file, password + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("Could not write " + file, e);
        }
    }

    /** Tables, sequences, views and functions of the public schema, made by the superuser in an earlier run. */
    private static void handOverObjects(String url, PostgresServer server, String role) {
        try (Connection database = DriverManager.getConnection(url, server.username(), server.password());
                Statement statement = database.createStatement()) {
            statement.execute("ALTER SCHEMA public OWNER TO " + role);
            statement.execute(
                    """
                    DO $$
                    DECLARE object record;
                    BEGIN
                      FOR object IN SELECT c.oid::regclass AS name, c.relkind FROM pg_class c
                          JOIN pg_namespace n ON n.oid = c.relnamespace
                          WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'S')
                            AND pg_get_userbyid(c.relowner) <> '%1$s'
                            AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.objid = c.oid AND d.deptype IN ('a', 'i'))
                      LOOP
                        EXECUTE format('ALTER %%s %%s OWNER TO %1$s',
                            CASE object.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW'
                                 WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE 'TABLE' END, object.name);
                      END LOOP;
                      FOR object IN SELECT p.oid::regprocedure AS name FROM pg_proc p
                          JOIN pg_namespace n ON n.oid = p.pronamespace
                          WHERE n.nspname = 'public' AND pg_get_userbyid(p.proowner) <> '%1$s'
                      LOOP
                        EXECUTE format('ALTER ROUTINE %%s OWNER TO %1$s', object.name);
                      END LOOP;
                    END $$"""
                            .formatted(role));
        } catch (SQLException e) {
            throw new IllegalStateException("Could not hand the objects of " + url + " to " + role, e);
        }
    }
}
