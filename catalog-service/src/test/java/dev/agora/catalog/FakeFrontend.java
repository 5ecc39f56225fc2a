package dev.agora.catalog;

import com.sun.net.httpserver.HttpServer;
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
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stands for a frontend's invalidation endpoint: records every {@code POST /internal/cache/invalidations}
 * with the token it carried and answers 204, as the real endpoint does. One started {@link #withChannel()}
 * also offers a push channel as the real frontend's {@code InvalidationChannel} does (its port named on every
 * HTTP answer), and records what arrives over it the same way.
 */
final class FakeFrontend implements AutoCloseable {

    enum Via {
        HTTP,
        CHANNEL
    }

    record Received(JsonNode body, String token, Via via) {}

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpServer server;
    private final ConcurrentLinkedQueue<Received> received = new ConcurrentLinkedQueue<>();

    private final ServerSocket channel;
    private final Set<Socket> channels = ConcurrentHashMap.newKeySet();
    private volatile boolean channelBroken;

    private FakeFrontend(HttpServer server, ServerSocket channel) {
        this.server = server;
        this.channel = channel;
    }

    static FakeFrontend start() {
        return start(false);
    }

    static FakeFrontend withChannel() {
        return start(true);
    }

    private static FakeFrontend start(boolean offerChannel) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
            ServerSocket channel = offerChannel ? new ServerSocket(0, 64, InetAddress.getLoopbackAddress()) : null;
            FakeFrontend frontend = new FakeFrontend(server, channel);
            server.createContext("/internal/cache/invalidations", exchange -> {
                try (exchange) {
                    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                    frontend.received.add(new Received(
                            JSON.readTree(body), exchange.getRequestHeaders().getFirst("X-Internal-Token"), Via.HTTP));
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
            if (greeting == null || !greeting.startsWith("AGORA-INVALIDATIONS/1 ") || channelBroken) {
                out.write("ERR refused\n".getBytes(StandardCharsets.US_ASCII));
                return;
            }
            String token = greeting.substring("AGORA-INVALIDATIONS/1 ".length());
            out.write("OK\n".getBytes(StandardCharsets.US_ASCII));
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (channelBroken) return;
                String[] fields = line.split(" ");
                JsonNode body = JSON.createObjectNode()
                        .put("bookId", Long.parseLong(fields[0]))
                        .put("version", Long.parseLong(fields[1]))
                        .put("searchAffected", fields[2].equals("1"));
                received.add(new Received(body, token, Via.CHANNEL));
                out.write("OK\n".getBytes(StandardCharsets.US_ASCII));
            }
        } catch (IOException e) {
            // the catalog closed it, or this fake did
        } finally {
            channels.remove(socket);
        }
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
