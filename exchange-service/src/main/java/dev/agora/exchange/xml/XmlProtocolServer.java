package dev.agora.exchange.xml;

import dev.agora.exchange.matching.Result;
import dev.agora.exchange.sequencer.ExchangeUnavailableException;
import dev.agora.exchange.sequencer.Sequencer;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The exchange's XML protocol over TCP: one request per connection, a virtual thread per connection, at
 * most {@code maxConnections} at once (a connection beyond that is told the server is busy and closed at
 * once). Whatever a client sends, the worst it gets is an {@code <error>} and a closed connection.
 */
public final class XmlProtocolServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(XmlProtocolServer.class);
    private static final int DRAIN_LIMIT = 64 * 1024;

    private final Settings settings;
    private final Sequencer sequencer;
    private final FrameReader frames;
    private final XmlRequestParser parser;
    private final XmlReplyWriter writer = new XmlReplyWriter();
    private final Semaphore connections;
    private volatile ServerSocket serverSocket;
    private Thread acceptor;

    /**
     * @param maxMessageBytes largest XML body accepted
     * @param readTimeoutMillis longest wait for any single read
     * @param requestDeadlineMillis longest time a whole request may take to arrive
     * @param replyTimeoutMillis longest wait for the engine's reply before answering with an error
     */
    public record Settings(
            String host,
            int port,
            int maxMessageBytes,
            int maxItems,
            int maxConnections,
            long readTimeoutMillis,
            long requestDeadlineMillis,
            long replyTimeoutMillis,
            int backlog) {}

    public XmlProtocolServer(Settings settings, Sequencer sequencer) {
        this.settings = settings;
        this.sequencer = sequencer;
        this.frames = new FrameReader(
                settings.maxMessageBytes(), settings.readTimeoutMillis(), settings.requestDeadlineMillis());
        this.parser = new XmlRequestParser(settings.maxItems());
        this.connections = new Semaphore(settings.maxConnections());
    }

    /** Binds and starts accepting; returns the bound port (useful when the configured port is 0). */
    public synchronized int start() {
        if (serverSocket != null) return serverSocket.getLocalPort();
        try {
            ServerSocket socket = new ServerSocket();
            socket.setReuseAddress(true);
            socket.bind(
                    new InetSocketAddress(InetAddress.getByName(settings.host()), settings.port()), settings.backlog());
            serverSocket = socket;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not listen on TCP port " + settings.port(), e);
        }
        acceptor = Thread.ofPlatform().name("exchange-xml-acceptor").daemon().start(this::acceptLoop);
        log.info("Exchange XML protocol listening on TCP port {}", serverSocket.getLocalPort());
        return serverSocket.getLocalPort();
    }

    /** The bound port, or -1 when not listening. */
    public int port() {
        ServerSocket socket = serverSocket;
        return socket == null ? -1 : socket.getLocalPort();
    }

    private void acceptLoop() {
        ServerSocket listening = serverSocket;
        while (!listening.isClosed()) {
            Socket socket;
            try {
                socket = listening.accept();
            } catch (IOException e) {
                if (!listening.isClosed()) log.warn("Accept failed", e);
                continue;
            }
            if (!connections.tryAcquire()) {
                refuse(socket);
                continue;
            }
            Thread.ofVirtual().name("exchange-xml-connection").start(() -> {
                try {
                    serve(socket);
                } finally {
                    connections.release();
                }
            });
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            socket.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(socket.getInputStream(), 8192);
            byte[] reply;
            boolean fullyRead = false;
            try {
                XmlRequest request = parser.parse(frames.read(socket, in));
                fullyRead = true;
                reply = execute(request);
            } catch (ProtocolException e) {
                reply = writer.error(e.getMessage());
            }
            OutputStream out = socket.getOutputStream();
            out.write(reply);
            out.flush();
            socket.shutdownOutput();
            if (fullyRead) discardAvailable(in);
            else drain(socket, in);
        } catch (SocketException e) {
            log.debug("Client went away: {}", e.getMessage());
        } catch (IOException | RuntimeException e) {
            log.warn("Connection failed", e);
        }
    }

    private byte[] execute(XmlRequest request) {
        Future<List<Result>> results = sequencer.submit(new RequestCommand(request));
        try {
            return writer.results(request, results.get(settings.replyTimeoutMillis(), TimeUnit.MILLISECONDS));
        } catch (TimeoutException e) {
            // Cancelling makes the sequencer skip the command if it has not run yet.
            results.cancel(false);
            return writer.error("exchange did not answer in time; the request may not have been applied");
        } catch (ExecutionException e) {
            String why = e.getCause() instanceof ExchangeUnavailableException unavailable
                    ? unavailable.getMessage()
                    : "internal error";
            return writer.error(why);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return writer.error("server is shutting down");
        }
    }

    /**
     * After an error reply to a request that was not read to its end, reads (and drops) what the client
     * still sends for a moment, so closing does not reset the connection before the client reads the reply.
     */
    private static void drain(Socket socket, InputStream in) {
        try {
            socket.setSoTimeout(200);
            byte[] sink = new byte[4096];
            int total = 0;
            int n;
            while (total < DRAIN_LIMIT && (n = in.read(sink)) >= 0) total += n;
        } catch (IOException ignored) {
            // The client stopped sending or went away: either way we are done.
        }
    }

    /**
     * Drops bytes a client sent beyond its declared length (a trailing newline, say) that already arrived:
     * closing a socket with unread input resets the connection, and the client could lose the reply.
     */
    private static void discardAvailable(InputStream in) throws IOException {
        int discarded = 0;
        int available;
        while (discarded < DRAIN_LIMIT && (available = in.available()) > 0) {
            discarded += (int) in.skip(available);
        }
    }

    private void refuse(Socket socket) {
        try (socket) {
            socket.getOutputStream().write(writer.error("server busy, try again"));
            socket.shutdownOutput();
        } catch (IOException e) {
            log.debug("Could not tell a client the server is busy", e);
        }
    }

    @Override
    public synchronized void close() {
        ServerSocket socket = serverSocket;
        if (socket == null) return;
        try {
            socket.close();
        } catch (IOException e) {
            log.debug("Closing the listener failed", e);
        }
        if (acceptor != null) {
            try {
                acceptor.join(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        serverSocket = null;
    }
}
