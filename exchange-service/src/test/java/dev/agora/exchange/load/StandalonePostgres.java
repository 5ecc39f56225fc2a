package dev.agora.exchange.load;

import dev.agora.local.postgres.EmbeddedPostgresServer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Runs an embedded PostgreSQL (fsync on) as its own process for load runs, so that pinning the exchange to
 * CPU cores with taskset does not pin the database too. Usage: {@code StandalonePostgres <port>}.
 */
public final class StandalonePostgres {

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        Path data = Files.createTempDirectory("exchange-load-pg");
        try (EmbeddedPostgresServer server = EmbeddedPostgresServer.start(data, port)) {
            System.out.println("READY " + server.jdbcUrl("exchange"));
            Thread.sleep(Long.MAX_VALUE);
        }
    }
}
