package dev.agora.perf.experiment;

import com.sun.net.httpserver.HttpServer;
import dev.agora.perf.load.ClosedLoad;
import dev.agora.perf.load.HttpDriver;
import dev.agora.perf.load.LoadResult;
import dev.agora.perf.stats.Numbers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * What a request costs on this machine before any of Agora's own work, measured in the same run and with the same
 * clients as the figures it bounds: the load generator against a trivial HTTP server in its own JVM (loopback, the
 * kernel and the client), a Spring Boot endpoint that touches nothing (a service's liveness probe: Tomcat, Spring
 * MVC and the service's filters), and a bare durable commit (one-row insert, autocommit, on the cluster's own
 * PostgreSQL with fsync on). Seed machines had their own floors; a ratio to ours says how much of a gap is Agora's.
 */
public final class Floors {

    /** Mean milliseconds per request of each floor; {@code commit} is empty when the database is out of reach. */
    public record Figures(double loadGenerator, double springEndpoint, Optional<Double> commit) {}

    /** Where the bare commit may write: the cluster's PostgreSQL, never a service's own schema. */
    public record Database(String jdbcUrl, String username, String password) {}

    private static final byte[] ANSWER = "{}".getBytes(StandardCharsets.US_ASCII);

    private Floors() {}

    public static Figures measure(
            HttpDriver http, String springEndpoint, Optional<Database> database, int clients, int requests) {
        double loadGenerator = againstTrivialServer(http, clients, requests);
        LoadResult spring = ClosedLoad.run(
                clients, requests, (client, i, recorder) -> recorder.time("floor", () -> http.get(springEndpoint)));
        if (spring.totalFailures() > 0) {
            throw new IllegalStateException(spring.totalFailures() + " failures against " + springEndpoint);
        }
        Optional<Double> commit = database.map(db -> bareCommits(db, clients, requests));
        return new Figures(loadGenerator, spring.all().meanMillis(), commit);
    }

    /**
     * The report's floor line for {@code clients} clients: each floor's mean, so that a reader can hold an Agora figure
     * measured with the same clients against what the machine gives for none of Agora's work.
     */
    public static String line(Figures floors, int clients) {
        return "per request, " + clients + (clients == 1 ? " client" : " clients") + ": the load generator against a"
                + " trivial HTTP server " + Numbers.format(floors.loadGenerator())
                + " ms; a Spring Boot endpoint of the first frontend that does no work of Agora's (its liveness probe)"
                + " " + Numbers.format(floors.springEndpoint()) + " ms; a bare durable commit on"
                + " the cluster's PostgreSQL "
                + floors.commit().map(Numbers::format).orElse("-")
                + " ms (means, measured right after the figures above)";
    }

    /** {@link #measure} against the first frontend's liveness probe, and the report's line for it. */
    public static String measureBeside(HttpDriver http, Target target, int clients, int requests) {
        String frontend = target.urls("frontend").getFirst();
        return line(measure(http, frontend + "/livez", target.database(), clients, requests), clients);
    }

    private static double againstTrivialServer(HttpDriver http, int clients, int requests) {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ExecutorService threads = Executors.newFixedThreadPool(Math.max(2, clients));
        server.setExecutor(threads);
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, ANSWER.length);
            exchange.getResponseBody().write(ANSWER);
            exchange.close();
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/floor";
            LoadResult result = ClosedLoad.run(
                    clients, requests, (client, i, recorder) -> recorder.time("floor", () -> http.get(url)));
            return result.all().meanMillis();
        } finally {
            server.stop(0);
            threads.shutdownNow();
        }
    }

    private static double bareCommits(Database database, int clients, int requests) {
        List<Connection> connections = new ArrayList<>();
        try {
            for (int client = 0; client < clients; client++) {
                connections.add(
                        DriverManager.getConnection(database.jdbcUrl(), database.username(), database.password()));
            }
            try (Statement setup = connections.getFirst().createStatement()) {
                setup.execute("CREATE TABLE IF NOT EXISTS perf_floor_commits (id bigserial PRIMARY KEY, at timestamptz"
                        + " NOT NULL DEFAULT clock_timestamp())");
            }
            LoadResult result = ClosedLoad.run(clients, requests, (client, i, recorder) -> {
                long start = System.nanoTime();
                try (Statement insert = connections.get(client).createStatement()) {
                    insert.executeUpdate("INSERT INTO perf_floor_commits DEFAULT VALUES");
                }
                recorder.record("commit", start, System.nanoTime() - start, 200, true);
            });
            try (Statement cleanup = connections.getFirst().createStatement()) {
                cleanup.execute("DROP TABLE perf_floor_commits");
            }
            return result.all().meanMillis();
        } catch (SQLException e) {
            throw new IllegalStateException("bare commit floor: " + e.getMessage(), e);
        } finally {
            for (Connection connection : connections) {
                try {
                    connection.close();
                } catch (SQLException ignored) {
                    // closing after the measurement; nothing depends on it
                }
            }
        }
    }
}
