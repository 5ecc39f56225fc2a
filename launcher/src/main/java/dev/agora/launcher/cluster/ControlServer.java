package dev.agora.launcher.cluster;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.json.JsonMapper;

/**
 * Fault injection over HTTP for a running cluster, on the loopback interface only, for callers that present the
 * data directory's {@link ControlToken} as {@code Authorization: Bearer <token>} (else 401) and are not a web page
 * of another site (a browser's {@code Origin} or {@code Sec-Fetch-Site} naming another origin gets 403, whatever it
 * carries):
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

    /** What a browser sends for a request of the endpoint's own origin, or one typed in by the user. */
    private static final Set<String> SAME_SITE = Set.of("same-origin", "none");

    private final HttpServer server;
    private final InstanceControl cluster;
    private final Predicate<String> frozen;
    private final byte[] token;

    private ControlServer(HttpServer server, InstanceControl cluster, Predicate<String> frozen, String token) {
        this.server = server;
        this.cluster = cluster;
        this.frozen = frozen;
        this.token = token.getBytes(StandardCharsets.UTF_8);
    }

    static ControlServer start(Cluster cluster, int port, String token) {
        return start(cluster, cluster::isFrozen, port, token);
    }

    /**
     * @param frozen whether an instance is frozen, for {@code GET /instances}
     * @param token what callers must present as {@code Authorization: Bearer <token>}
     */
    static ControlServer start(InstanceControl cluster, Predicate<String> frozen, int port, String token) {
        if (token == null || token.isBlank()) throw new IllegalArgumentException("The control endpoint needs a token");
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
            ControlServer control = new ControlServer(server, cluster, frozen, token);
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

    java.net.InetSocketAddress address() {
        return server.getAddress();
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (crossSite(exchange)) {
                problem(
                        exchange,
                        403,
                        "cross-site",
                        "The control endpoint takes no requests from web pages of other sites");
                return;
            }
            if (!authorized(exchange)) {
                exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"agora-cluster-control\"");
                problem(
                        exchange,
                        401,
                        "unauthorized",
                        "Send Authorization: Bearer <token> with the token of <data-dir>/" + ControlToken.FILE_NAME);
                return;
            }
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            if (path.equals("/instances") || path.equals("/instances/")) {
                if (!method.equals("GET")) {
                    problem(exchange, 405, "method-not-allowed", "Use GET on /instances");
                    return;
                }
                List<InstanceStatus> statuses = cluster.instances().stream()
                        .map(instance -> InstanceStatus.of(instance, frozen.test(instance.name())))
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

    /**
     * A browser names the page's origin ({@code Origin}) on cross-origin requests and on every POST, and says where
     * the request comes from ({@code Sec-Fetch-Site}); tools like curl and the launcher's client send neither.
     */
    private boolean crossSite(HttpExchange exchange) {
        String site = exchange.getRequestHeaders().getFirst("Sec-Fetch-Site");
        if (site != null && !SAME_SITE.contains(site.strip().toLowerCase(java.util.Locale.ROOT))) return true;
        String origin = exchange.getRequestHeaders().getFirst("Origin");
        if (origin == null) return false;
        int port = port();
        return !origin.equals("http://127.0.0.1:" + port) && !origin.equals("http://localhost:" + port);
    }

    private boolean authorized(HttpExchange exchange) {
        String header = exchange.getRequestHeaders().getFirst("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) return false;
        byte[] presented = header.substring(7).strip().getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(presented, token);
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
