package dev.agora.catalog;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stands for a frontend's invalidation endpoint: records every {@code POST /internal/cache/invalidations}
 * with the token it carried and answers 204, as the real endpoint does.
 */
final class FakeFrontend implements AutoCloseable {

    record Received(JsonNode body, String token) {}

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpServer server;
    private final ConcurrentLinkedQueue<Received> received = new ConcurrentLinkedQueue<>();

    private FakeFrontend(HttpServer server) {
        this.server = server;
    }

    static FakeFrontend start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
            FakeFrontend frontend = new FakeFrontend(server);
            server.createContext("/internal/cache/invalidations", exchange -> {
                try (exchange) {
                    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                    frontend.received.add(new Received(
                            JSON.readTree(body), exchange.getRequestHeaders().getFirst("X-Internal-Token")));
                    exchange.sendResponseHeaders(204, -1);
                }
            });
            server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            server.start();
            return frontend;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    List<Received> receivedFor(long bookId) {
        return received.stream()
                .filter(r -> r.body().path("bookId").asLong() == bookId)
                .toList();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
