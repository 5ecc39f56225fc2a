package dev.agora.catalog;

import com.sun.net.httpserver.HttpServer;
import dev.agora.common.security.AgoraSecurityProperties;
import dev.agora.common.security.Roles;
import dev.agora.common.security.testing.TestIssuer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.JwtValidators;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stands for a frontend's invalidation endpoint: verifies the bearer token of every
 * {@code POST /internal/cache/invalidations} as the real frontend does (signed by the issuer, unexpired, scope
 * {@code internal}), records the push with the token's subject and answers 204, or answers 401 and records
 * nothing. One started {@link #withChannel} also offers a push channel as the real frontend's
 * {@code InvalidationChannel} does (its port named on every HTTP answer), verifies the token of its greeting the
 * same way, and records what arrives over it.
 */
final class FakeFrontend implements AutoCloseable {

    enum Via {
        HTTP,
        CHANNEL
    }

    /** @param caller the subject of the verified service token the push carried */
    record Received(JsonNode body, String caller, Via via) {}

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpServer server;
    private final NimbusJwtDecoder tokens;
    private final ConcurrentLinkedQueue<Received> received = new ConcurrentLinkedQueue<>();
    private final AtomicInteger refused = new AtomicInteger();

    private final ServerSocket channel;
    private final Set<Socket> channels = ConcurrentHashMap.newKeySet();
    private volatile boolean channelBroken;

    private FakeFrontend(HttpServer server, ServerSocket channel, TestIssuer issuer) {
        this.server = server;
        this.channel = channel;
        this.tokens =
                NimbusJwtDecoder.withJwkSetUri(issuer.url() + "/oauth2/jwks").build();
        tokens.setJwtValidator(JwtValidators.createDefaultWithIssuer(AgoraSecurityProperties.DEFAULT_ISSUER));
    }

    static FakeFrontend start(TestIssuer issuer) {
        return start(issuer, false);
    }

    static FakeFrontend withChannel(TestIssuer issuer) {
        return start(issuer, true);
    }

    private static FakeFrontend start(TestIssuer issuer, boolean offerChannel) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
            ServerSocket channel = offerChannel ? new ServerSocket(0, 64, InetAddress.getLoopbackAddress()) : null;
            FakeFrontend frontend = new FakeFrontend(server, channel, issuer);
            server.createContext("/internal/cache/invalidations", exchange -> {
                try (exchange) {
                    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                    String authorization = exchange.getRequestHeaders().getFirst("Authorization");
                    String caller = authorization != null && authorization.startsWith("Bearer ")
                            ? frontend.serviceCalling(authorization.substring("Bearer ".length()))
                            : null;
                    if (caller == null) {
                        frontend.refused.incrementAndGet();
                        exchange.sendResponseHeaders(401, -1);
                        return;
                    }
                    frontend.received.add(new Received(JSON.readTree(body), caller, Via.HTTP));
                    if (channel != null) {
                        exchange.getResponseHeaders()
                                .set("Agora-Invalidation-Channel", String.valueOf(channel.getLocalPort()));
                    }
                    exchange.sendResponseHeaders(204, -1);
                }
            });
            if (channel != null) Thread.ofVirtual().start(frontend::acceptChannels);
            server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            server.start();
            return frontend;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void acceptChannels() {
        while (!channel.isClosed()) {
            try {
                Socket socket = channel.accept();
                channels.add(socket);
                Thread.ofVirtual().start(() -> serveChannel(socket));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serveChannel(Socket socket) {
        try (socket;
                BufferedReader in =
                        new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))) {
            OutputStream out = socket.getOutputStream();
            String greeting = in.readLine();
            String caller = greeting != null && greeting.startsWith("AGORA-INVALIDATIONS/1 ")
                    ? serviceCalling(greeting.substring("AGORA-INVALIDATIONS/1 ".length()))
                    : null;
            if (caller == null || channelBroken) {
                if (caller == null) refused.incrementAndGet();
                out.write("ERR refused\n".getBytes(StandardCharsets.US_ASCII));
                return;
            }
            out.write("OK\n".getBytes(StandardCharsets.US_ASCII));
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (channelBroken) return;
                String[] fields = line.split(" ");
                JsonNode body = JSON.createObjectNode()
                        .put("bookId", Long.parseLong(fields[0]))
                        .put("version", Long.parseLong(fields[1]))
                        .put("searchAffected", fields[2].equals("1"));
                received.add(new Received(body, caller, Via.CHANNEL));
                out.write("OK\n".getBytes(StandardCharsets.US_ASCII));
            }
        } catch (IOException e) {
            // the catalog closed it, or this fake did
        } finally {
            channels.remove(socket);
        }
    }

    /** The subject of a valid service token (scope {@code internal}); null for any other token. */
    private String serviceCalling(String token) {
        try {
            Jwt jwt = tokens.decode(token);
            // A space-separated string (RFC 8693) or a list, as Spring Authorization Server writes it.
            Object scope = jwt.getClaims().get("scope");
            List<String> scopes = scope instanceof Collection<?> list
                    ? list.stream().map(String::valueOf).toList()
                    : List.of(String.valueOf(scope).split(" "));
            return scopes.contains(Roles.INTERNAL_SCOPE) ? jwt.getSubject() : null;
        } catch (JwtException invalid) {
            return null;
        }
    }

    /** Pushes and channel greetings refused for a missing or invalid token. */
    int refused() {
        return refused.get();
    }

    /** From now on every channel is dropped at its next line and new ones are refused: pushes must use HTTP. */
    void breakChannels() {
        channelBroken = true;
    }

    void repairChannels() {
        channelBroken = false;
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
        if (channel != null) {
            try {
                channel.close();
                for (Socket socket : channels) socket.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
