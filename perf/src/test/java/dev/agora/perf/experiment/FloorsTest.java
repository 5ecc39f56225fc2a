package dev.agora.perf.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.agora.local.postgres.PostgresServer;
import dev.agora.local.postgres.SharedPostgres;
import dev.agora.perf.load.HttpDriver;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.sql.DriverManager;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FloorsTest {

    @Test
    void floorsAreMeasuredAgainstRealEndpointsAndACommitThatLeavesNothingBehind() throws Exception {
        PostgresServer postgres = SharedPostgres.get();
        String url = postgres.jdbcUrl("perf_floors");
        HttpServer endpoint = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        endpoint.createContext("/livez", exchange -> {
            byte[] body = "{\"status\":\"UP\"}".getBytes();
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        endpoint.start();
        try (HttpDriver http = new HttpDriver(4)) {
            Floors.Figures figures = Floors.measure(
                    http,
                    "http://127.0.0.1:" + endpoint.getAddress().getPort() + "/livez",
                    Optional.of(new Floors.Database(url, postgres.username(), postgres.password())),
                    2,
                    20);

            assertThat(figures.loadGenerator()).isPositive();
            assertThat(figures.springEndpoint()).isPositive();
            assertThat(figures.commit())
                    .hasValueSatisfying(commit -> assertThat(commit).isPositive());
        } finally {
            endpoint.stop(0);
        }
        try (var connection = DriverManager.getConnection(url, postgres.username(), postgres.password());
                var tables = connection
                        .createStatement()
                        .executeQuery("SELECT count(*) FROM pg_tables WHERE tablename = 'perf_floor_commits'")) {
            tables.next();
            assertThat(tables.getInt(1))
                    .as("the floor's scratch table is dropped")
                    .isZero();
        }
    }

    @Test
    void aFailingEndpointIsNotAFloor() throws Exception {
        HttpServer endpoint = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        endpoint.createContext("/", exchange -> {
            exchange.sendResponseHeaders(503, -1);
            exchange.close();
        });
        endpoint.start();
        try (HttpDriver http = new HttpDriver(2)) {
            String broken = "http://127.0.0.1:" + endpoint.getAddress().getPort() + "/livez";
            org.assertj.core.api.Assertions.assertThatThrownBy(
                            () -> Floors.measure(http, broken, Optional.empty(), 1, 3))
                    .hasMessageContaining("failures against");
        } finally {
            endpoint.stop(0);
        }
    }
}
