package dev.agora.perf.load;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP server on 127.0.0.1 and a free port for the load generator's tests: answers {@code /ok}
 * with 200 and a Server-Timing header, {@code /fail} with 500, {@code /slow} after 50 ms, and counts what
 * it received.
 */
final class LocalServer implements AutoCloseable {

    final AtomicInteger received = new AtomicInteger();
    private final HttpServer server;
    private final ExecutorService executor;

    LocalServer(int threads) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        executor = Executors.newFixedThreadPool(threads);
        server.setExecutor(executor);
        server.createContext("/ok", exchange -> answer(exchange, 200, "{\"ok\":true}"));
        server.createContext("/fail", exchange -> answer(exchange, 500, "{\"type\":\"boom\"}"));
        server.createContext("/slow", exchange -> {
            sleep(50);
            answer(exchange, 200, "{}");
        });
        server.start();
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    private void answer(HttpExchange exchange, int status, String body) throws IOException {
        received.incrementAndGet();
        exchange.getRequestBody().readAllBytes();
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.getResponseHeaders().add("Server-Timing", "catalog;dur=0.5, cache;desc=miss");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
