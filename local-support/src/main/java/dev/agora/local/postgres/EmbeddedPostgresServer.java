package dev.agora.local.postgres;

import dev.agora.local.process.ParentWatch;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A real PostgreSQL (zonky embedded binaries) run as a child process: no installation and no Docker needed.
 * Durability settings are PostgreSQL's defaults (fsync and synchronous commit on), so crash tests mean
 * something. A watchdog stops it (fast shutdown) when this JVM dies without running its shutdown hooks.
 */
public final class EmbeddedPostgresServer implements PostgresServer {

    /**
     * How long {@link #close()} waits for the postmaster to be gone. zonky's {@code pg_ctl stop} waits 5 s (fixed),
     * and on a loaded two-core machine the shutdown checkpoint can take longer: the postmaster then goes on stopping
     * after {@code close()} returned, and a server started again on the same data directory gave up after 60 s.
     */
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

    private final EmbeddedPostgres postgres;
    private final long postmaster;
    private final Process watchdog;

    private EmbeddedPostgresServer(EmbeddedPostgres postgres) {
        this.postgres = postgres;
        this.postmaster = postmasterPid(postgres);
        this.watchdog = ParentWatch.signalWhenGone(ProcessHandle.current().pid(), postmaster, "INT");
    }

    /**
     * @param dataDirectory where the cluster lives; kept across restarts when given, a temporary one otherwise
     * @param port the port to listen on, 0 for any free one
     */
    public static EmbeddedPostgresServer start(Path dataDirectory, int port) {
        try {
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setServerConfig("fsync", "on")
                    .setServerConfig("synchronous_commit", "on")
                    .setServerConfig("full_page_writes", "on")
                    .setServerConfig("max_connections", "400")
                    .setServerConfig("shared_buffers", "256MB")
                    .setPGStartupWait(java.time.Duration.ofSeconds(60));
            if (port > 0) builder.setPort(port);
            if (dataDirectory != null) {
                builder.setDataDirectory(dataDirectory).setCleanDataDirectory(false);
            }
            return new EmbeddedPostgresServer(builder.start());
        } catch (IOException e) {
            throw new UncheckedIOException("Embedded PostgreSQL did not start", e);
        }
    }

    public int port() {
        return postgres.getPort();
    }

    @Override
    public String jdbcUrl(String database) {
        PostgresServer.createDatabaseIfMissing(
                postgres.getJdbcUrl("postgres", "postgres"), username(), password(), database);
        return jdbcUrl(postgres.getPort(), database);
    }

    /** Where {@code database} of the embedded server on {@code port} is, before it has started or been created. */
    public static String jdbcUrl(int port, String database) {
        return "jdbc:postgresql://localhost:" + port + "/" + database;
    }

    @Override
    public String username() {
        return "postgres";
    }

    @Override
    public String password() {
        return "postgres";
    }

    /** The postmaster's pid: the first line of {@code postmaster.pid} in the server's data directory. */
    private static long postmasterPid(EmbeddedPostgres postgres) {
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
                Statement statement = connection.createStatement();
                ResultSet dataDirectory = statement.executeQuery("SHOW data_directory")) {
            dataDirectory.next();
            Path pidFile = Path.of(dataDirectory.getString(1), "postmaster.pid");
            return Long.parseLong(Files.readAllLines(pidFile).getFirst().trim());
        } catch (SQLException | IOException e) {
            throw new IllegalStateException("Could not find the embedded PostgreSQL's postmaster", e);
        }
    }

    @Override
    public void close() {
        watchdog.destroy();
        try {
            postgres.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ProcessHandle.of(postmaster).ifPresent(process -> {
            try {
                process.onExit().get(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                // Still stopping: a start on the same data directory says so itself; stopping goes on meanwhile.
            }
        });
    }
}
