package dev.agora.local.cluster;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * A stand-in for a service's exec jar, packed into a jar of its own by {@link LocalProcessesTest}: it listens on
 * {@code --server.port}, is ready, names its pid in {@code /actuator/info} and reports its profile and the role
 * {@code FAKE_ROLE} in {@code /actuator/health}, as the services do.
 */
public final class FakeService {

    private FakeService() {}

    public static void main(String[] args) throws IOException {
        int port = 0;
        for (String arg : args) {
            if (arg.startsWith("--server.port=")) port = Integer.parseInt(arg.substring("--server.port=".length()));
        }
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 16);
        server.createContext("/readyz", exchange -> answer(exchange, "{\"status\":\"UP\"}"));
        server.createContext(
                "/actuator/info",
                exchange -> answer(
                        exchange,
                        "{\"process\":{\"pid\":" + ProcessHandle.current().pid() + "}}"));
        server.createContext(
                "/actuator/health",
                exchange -> answer(
                        exchange,
                        "{\"status\":\"UP\",\"profile\":\"" + System.getenv("SPRING_PROFILES_ACTIVE")
                                + "\",\"details\":{\"role\":\"" + System.getenv("FAKE_ROLE") + "\"}}"));
        server.start();
        System.out.println("fake service listening on " + port);
    }

    private static void answer(HttpExchange exchange, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, bytes.length);
        try (var out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
