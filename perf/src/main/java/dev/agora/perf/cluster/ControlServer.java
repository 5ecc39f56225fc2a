package dev.agora.perf.cluster;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.json.JsonMapper;

/**
 * Fault injection over HTTP for a running cluster, on the loopback interface only:
 *
 * <ul>
 *   <li>{@code GET /instances}: every instance with pid, URL, log and whether it is alive or frozen
 *   <li>{@code POST /instances/{name}/kill|freeze|thaw|restart}: SIGKILL, SIGSTOP, SIGCONT, or kill-start-await
 *       (answers once the instance is ready again, with the start-to-ready time)
 * </ul>
 *
 * Errors are problem+json, like the services'.
 */
final class ControlServer implements AutoCloseable {

    static final String PROBLEM_BASE = "https://agora.dev/problems/cluster-control/";
    private static final Pattern ACTION = Pattern.compile("/instances/([a-z]+-[0-9]+)/([a-z]+)");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpServer server;
    private final Cluster cluster;

    private ControlServer(HttpServer server, Cluster cluster) {
        this.server = server;
        this.cluster = cluster;
    }

    static ControlServer start(Cluster cluster, int port) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
            ControlServer control = new ControlServer(server, cluster);
            server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            server.createContext("/instances", control::handle);
            server.start();
            return control;
        } catch (IOException e) {
            throw new UncheckedIOException("Control endpoint could not listen on 127.0.0.1:" + port, e);
        }
    }

    int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            if (path.equals("/instances") || path.equals("/instances/")) {
                if (!method.equals("GET")) {
                    problem(exchange, 405, "method-not-allowed", "Use GET on /instances");
                    return;
                }
                List<InstanceStatus> statuses = cluster.instances().stream()
                        .map(instance -> InstanceStatus.of(instance, cluster.isFrozen(instance.name())))
                        .toList();
                send(exchange, 200, "application/json", JSON.writeValueAsString(statuses));
                return;
            }
            Matcher matcher = ACTION.matcher(path);
            if (!matcher.matches()) {
                problem(exchange, 404, "not-found", "No such resource: " + path);
                return;
            }
            if (!method.equals("POST")) {
                problem(exchange, 405, "method-not-allowed", "Use POST for instance actions");
                return;
            }
            act(exchange, matcher.group(1), matcher.group(2));
        }
    }

    private void act(HttpExchange exchange, String instance, String action) throws IOException {
        if (cluster.instances().stream().noneMatch(candidate -> candidate.name().equals(instance))) {
            problem(exchange, 404, "unknown-instance", "No instance " + instance);
            return;
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("instance", instance);
        result.put("action", action);
        try {
            switch (action) {
                case "kill" -> cluster.kill(instance);
                case "freeze" -> cluster.freeze(instance);
                case "thaw" -> cluster.thaw(instance);
                case "restart" -> {
                    Duration startToReady = cluster.restart(instance);
                    result.put("startToReadyMillis", startToReady.toMillis());
                }
                default -> {
                    problem(exchange, 400, "unknown-action", "Actions: kill, freeze, thaw, restart; not " + action);
                    return;
                }
            }
        } catch (IllegalStateException e) {
            problem(exchange, 409, "instance-state", e.getMessage());
            return;
        }
        result.put(
                "pid",
                cluster.instances().stream()
                        .filter(candidate -> candidate.name().equals(instance))
                        .findFirst()
                        .map(Instance::pid)
                        .orElse(-1L));
        send(exchange, 200, "application/json", JSON.writeValueAsString(result));
    }

    private static void problem(HttpExchange exchange, int status, String type, String detail) throws IOException {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", PROBLEM_BASE + type);
        body.put("title", type.replace('-', ' '));
        body.put("status", status);
        body.put("detail", detail);
        send(exchange, status, "application/problem+json", JSON.writeValueAsString(body));
    }

    private static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }
}
