package dev.agora.catalog.invalidation;

import dev.agora.catalog.book.BookChanged;
import dev.agora.common.security.ServiceTokens;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Deque;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Kept-open push channels to the frontends that offer one (the frontend's {@code InvalidationChannel}): one
 * line per invalidation, one {@code OK} back, on a plain TCP connection that a pushing thread holds from its
 * write to its acknowledgement. Against a push over HTTP this saves the frontend a Tomcat hand-off and its
 * request machinery, and the catalog a pooled thread: the writing request thread sends, commits, and reads
 * the acknowledgement itself.
 *
 * <p>A frontend names its channel's port on its answers to HTTP pushes ({@link #learn}). A push only ever
 * takes an idle channel; when there is none, one is opened in the background and this push goes over HTTP,
 * so opening a channel (or failing to, for a frozen frontend) never delays a write. A channel that fails in
 * any way is closed and the push falls back to HTTP within its deadline.
 *
 * <p>A channel opens with the greeting {@code AGORA-INVALIDATIONS/1 <token>}: the catalog's own
 * client-credentials token (a JWT with scope {@code internal}), which the frontend verifies as it verifies any
 * bearer token before it answers {@code OK}. The token is checked once, when the channel opens; a channel may
 * outlive it, and a frontend that closes it then costs one push over HTTP and a new channel with a fresh token.
 * When no token can be had (no frontend issues one), no channel opens and pushes go over HTTP, which fails the
 * same way.
 */
final class PushChannels implements AutoCloseable {

    static final String PORT_HEADER = "Agora-Invalidation-Channel";

    private static final byte[] OK = "OK".getBytes(StandardCharsets.US_ASCII);
    private static final int MAX_LINE_BYTES = 128;
    /** Idle channels kept per frontend; more were only needed for a burst of concurrent writes. */
    private static final int MAX_IDLE = 32;

    private static final String GREETING = "AGORA-INVALIDATIONS/1 ";

    private final ServiceTokens tokens;
    private final Duration connectTimeout;
    private final Duration readTimeout;
    private final Executor opener;
    private final Map<URI, Integer> ports = new ConcurrentHashMap<>();
    private final Map<URI, Deque<Channel>> idle = new ConcurrentHashMap<>();
    private final Set<URI> opening = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    PushChannels(ServiceTokens tokens, Duration connectTimeout, Duration readTimeout, Executor opener) {
        this.tokens = tokens;
        this.connectTimeout = connectTimeout;
        this.readTimeout = readTimeout;
        this.opener = opener;
    }

    /** What a frontend's answer to an HTTP push said of its channel ({@code null}: it offers none). */
    void learn(URI frontend, String portHeader) {
        Integer port = parsePort(portHeader);
        if (port == null) {
            ports.remove(frontend);
        } else if (!port.equals(ports.put(frontend, port))) {
            // a frontend that restarted on another port: the old channels are dead
            discardIdle(frontend);
        }
    }

    private static Integer parsePort(String header) {
        if (header == null) return null;
        try {
            int port = Integer.parseInt(header.trim());
            return port > 0 && port < 65536 ? port : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The change written to an idle channel to this frontend, or empty: push it over HTTP. */
    Optional<Sent> send(URI frontend, BookChanged change) {
        Integer port = ports.get(frontend);
        if (port == null) return Optional.empty();
        byte[] line = (change.bookId() + " " + change.version() + " " + (change.searchAffected() ? 1 : 0) + "\n")
                .getBytes(StandardCharsets.US_ASCII);
        Deque<Channel> channels = idle.computeIfAbsent(frontend, f -> new ConcurrentLinkedDeque<>());
        for (Channel channel = channels.pollFirst(); channel != null; channel = channels.pollFirst()) {
            try {
                channel.out.write(line);
                return Optional.of(new Sent(frontend, channel));
            } catch (IOException dead) {
                channel.close();
            }
        }
        openInBackground(frontend, port);
        return Optional.empty();
    }

    private void openInBackground(URI frontend, int port) {
        if (closed || !opening.add(frontend)) return;
        opener.execute(() -> {
            try {
                byte[] greeting = (GREETING + tokens.bearer() + "\n").getBytes(StandardCharsets.US_ASCII);
                Channel channel = Channel.open(frontend.getHost(), port, connectTimeout, readTimeout, greeting);
                if (!offer(frontend, channel)) channel.close();
            } catch (IOException refused) {
                // The frontend may be down or on another port now: its next HTTP answer says.
                ports.remove(frontend, port);
            } catch (RuntimeException noToken) {
                // No token to open with now; the next push that finds no idle channel tries again.
            } finally {
                opening.remove(frontend);
            }
        });
    }

    private boolean offer(URI frontend, Channel channel) {
        Deque<Channel> channels = idle.computeIfAbsent(frontend, f -> new ConcurrentLinkedDeque<>());
        if (closed || channels.size() >= MAX_IDLE) return false;
        channels.offerFirst(channel);
        return true;
    }

    private void discardIdle(URI frontend) {
        Deque<Channel> channels = idle.get(frontend);
        if (channels == null) return;
        for (Channel channel = channels.pollFirst(); channel != null; channel = channels.pollFirst()) channel.close();
    }

    @Override
    public void close() {
        closed = true;
        idle.keySet().forEach(this::discardIdle);
    }

    /** A change written to a channel, not yet acknowledged. Held by one thread. */
    final class Sent {

        private final URI frontend;
        private final Channel channel;

        private Sent(URI frontend, Channel channel) {
            this.frontend = frontend;
            this.channel = channel;
        }

        URI frontend() {
            return frontend;
        }

        /** Whether the acknowledgement has arrived already (reading it then does not block). */
        boolean answered() {
            try {
                return channel.in.available() > 0;
            } catch (IOException e) {
                return true;
            }
        }

        /**
         * Waits for the acknowledgement until the deadline; true when the frontend took the change. Either way
         * the channel is done with: back to the idle ones, or closed.
         */
        boolean acknowledged(long deadlineNanos) {
            long remainingMillis = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
            try {
                channel.socket.setSoTimeout((int) Math.max(1, remainingMillis));
                if (channel.readOk()) {
                    if (!offer(frontend, channel)) channel.close();
                    return true;
                }
            } catch (IOException failed) {
                // closed below
            }
            channel.close();
            return false;
        }
    }

    private record Channel(Socket socket, InputStream in, OutputStream out) {

        static Channel open(String host, int port, Duration connectTimeout, Duration readTimeout, byte[] greeting)
                throws IOException {
            Socket socket = new Socket();
            try {
                socket.setTcpNoDelay(true);
                socket.connect(new InetSocketAddress(host, port), (int) connectTimeout.toMillis());
                socket.setSoTimeout((int) readTimeout.toMillis());
                Channel channel = new Channel(
                        socket, new BufferedInputStream(socket.getInputStream(), 256), socket.getOutputStream());
                channel.out.write(greeting);
                if (!channel.readOk()) throw new IOException("frontend refused the channel");
                return channel;
            } catch (IOException e) {
                socket.close();
                throw e;
            }
        }

        /** Reads one answer line: true for {@code OK}, false for anything else (an {@code ERR}, the end). */
        boolean readOk() throws IOException {
            byte[] line = new byte[MAX_LINE_BYTES];
            int length = 0;
            for (int next = in.read(); next != '\n'; next = in.read()) {
                if (next == -1 || length == line.length) return false;
                line[length++] = (byte) next;
            }
            return length == OK.length && line[0] == OK[0] && line[1] == OK[1];
        }

        void close() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // nothing more to do with it
            }
        }
    }
}
