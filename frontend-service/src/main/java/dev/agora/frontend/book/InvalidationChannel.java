package dev.agora.frontend.book;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The catalog's kept-open push channel: a plain TCP connection per catalog thread that pushes, carrying one
 * invalidation per line and one acknowledgement per line back. It exists because a push lies on the path of
 * every buy, and over HTTP each push took a Tomcat poller and worker hand-off and the request machinery on
 * this side, a pooled thread on the catalog's: on two shared cores those wake-ups cost several times the
 * invalidation itself. Here a push wakes one thread on each side. The HTTP endpoint ({@link
 * InvalidationFilter}) stays: the catalog learns this channel's port from its answers, and falls back to it
 * whenever the channel fails.
 *
 * <p>The protocol, ASCII lines ending in {@code \n}: the catalog opens with
 * {@code AGORA-INVALIDATIONS/1 <service token>} (a JWT with scope {@code internal}; at most
 * {@value #MAX_GREETING_BYTES} bytes), answered {@code OK}; then each line (at most {@value #MAX_LINE_BYTES} bytes)
 * {@code <bookId> <version> <searchAffected 0|1>} is applied and answered {@code OK}. A wrong token, a
 * malformed or over-long line is answered {@code ERR <reason>} and the connection closed; nothing changes.
 */
public final class InvalidationChannel implements AutoCloseable {

    public static final String GREETING = "AGORA-INVALIDATIONS/1";
    /** The header on an HTTP push's answer that names this channel's port. */
    public static final String PORT_HEADER = "Agora-Invalidation-Channel";

    static final int MAX_LINE_BYTES = 128;
    static final int MAX_GREETING_BYTES = 4096;

    private static final Logger log = LoggerFactory.getLogger(InvalidationChannel.class);
    private static final byte[] OK = "OK\n".getBytes(StandardCharsets.US_ASCII);
    /** The greeting must come at once; an established channel may then idle for as long as it likes. */
    private static final int GREETING_TIMEOUT_MILLIS = 2000;

    private final BookCache cache;
    private final Predicate<String> serviceToken;
    private final int maxConnections;
    private final ServerSocket server;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Thread acceptor;

    private InvalidationChannel(
            BookCache cache, Predicate<String> serviceToken, int maxConnections, ServerSocket server) {
        this.cache = cache;
        this.serviceToken = serviceToken;
        this.maxConnections = maxConnections;
        this.server = server;
        this.acceptor =
                Thread.ofPlatform().name("invalidation-channel-accept").daemon().unstarted(this::acceptAll);
    }

    /**
     * @param address where to listen (the web server's address; {@code null} for every interface)
     * @param port 0 for any free port
     */
    public static InvalidationChannel open(
            BookCache cache, Predicate<String> serviceToken, InetAddress address, int port, int maxConnections)
            throws IOException {
        ServerSocket server = new ServerSocket();
        server.bind(new InetSocketAddress(address, port), 64);
        InvalidationChannel channel = new InvalidationChannel(cache, serviceToken, maxConnections, server);
        channel.acceptor.start();
        return channel;
    }

    public int port() {
        return server.getLocalPort();
    }

    private void acceptAll() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                if (open.size() >= maxConnections) {
                    refuse(socket, "too many channels");
                    continue;
                }
                open.add(socket);
                Thread.ofPlatform()
                        .name("invalidation-channel-" + socket.getPort())
                        .daemon()
                        .start(() -> serve(socket));
            } catch (IOException e) {
                if (!server.isClosed()) log.warn("Invalidation channel could not accept a connection", e);
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(GREETING_TIMEOUT_MILLIS);
            InputStream in = new BufferedInputStream(socket.getInputStream(), 512);
            OutputStream out = socket.getOutputStream();
            byte[] greeting = new byte[MAX_GREETING_BYTES];
            int length = readLine(in, greeting);
            if (length < 0 || !greeted(new String(greeting, 0, length, StandardCharsets.US_ASCII))) {
                refuse(socket, length == -2 ? "line too long" : "unauthorized");
                return;
            }
            byte[] line = new byte[MAX_LINE_BYTES];
            out.write(OK);
            socket.setSoTimeout(0);
            while (true) {
                length = readLine(in, line);
                if (length == -1) return;
                String failure =
                        length == -2 ? "line too long" : apply(new String(line, 0, length, StandardCharsets.US_ASCII));
                if (failure != null) {
                    refuse(socket, failure);
                    return;
                }
                out.write(OK);
            }
        } catch (SocketException closed) {
            // the catalog went away or this channel is closing
        } catch (IOException e) {
            log.debug("Invalidation channel from {} ended", socket.getRemoteSocketAddress(), e);
        } finally {
            open.remove(socket);
        }
    }

    /** Applies one invalidation line; returns why it is not one, or {@code null}. */
    private String apply(String line) {
        String[] fields = line.split(" ", -1);
        if (fields.length != 3 || !(fields[2].equals("0") || fields[2].equals("1"))) return "malformed invalidation";
        long bookId;
        long version;
        try {
            bookId = Long.parseLong(fields[0]);
            version = Long.parseLong(fields[1]);
        } catch (NumberFormatException e) {
            return "malformed invalidation";
        }
        if (bookId <= 0 || version <= 0) return "bookId and version must be positive";
        cache.invalidate(bookId, version, fields[2].equals("1"));
        return null;
    }

    /**
     * Reads up to a {@code \n} into {@code line}; returns its length, -1 at the end of the stream (a line cut
     * off by it is dropped), -2 when the line does not fit.
     */
    private boolean greeted(String greeting) {
        return greeting.startsWith(GREETING + " ") && serviceToken.test(greeting.substring(GREETING.length() + 1));
    }

    private static int readLine(InputStream in, byte[] line) throws IOException {
        int length = 0;
        while (true) {
            int next = in.read();
            if (next == -1) return -1;
            if (next == '\n') return length;
            if (length == line.length) return -2;
            line[length++] = (byte) next;
        }
    }

    private static void refuse(Socket socket, String reason) {
        try (socket) {
            socket.getOutputStream().write(("ERR " + reason + "\n").getBytes(StandardCharsets.US_ASCII));
        } catch (IOException ignored) {
            // it is being closed anyway
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket socket : open) socket.close();
    }
}
