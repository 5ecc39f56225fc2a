package dev.agora.exchange.xml;

import dev.agora.exchange.matching.Result;
import dev.agora.exchange.sequencer.ExchangeUnavailableException;
import dev.agora.exchange.sequencer.Sequencer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The exchange's XML protocol over TCP: one request per connection, at most {@code maxConnections} at once (a
 * connection beyond that is told the server is busy and closed at once). Whatever a client sends, the worst it
 * gets is an {@code <error>} and a closed connection.
 *
 * <p>One I/O thread does all accepting and reading with a selector, and parses each complete frame; the reply
 * is written by the thread that completes the request's future (normally the sequencer's committer, right after
 * the batch's durable commit), with one non-blocking write, and the connection is closed. So a request costs no
 * thread of its own and no hand-over beyond the sequencer's: at thousands of connections per second on two
 * cores, thread wake-ups, not parsing, were what a request cost (a virtual thread per connection spent most of
 * its time being scheduled).
 */
public final class XmlProtocolServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(XmlProtocolServer.class);
    private static final int DRAIN_LIMIT = 64 * 1024;
    private static final long DRAIN_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    /** How often timeouts are checked: their resolution. */
    private static final long SWEEP_MILLIS = 20;

    private static final int ACCEPTS_PER_WAKE_UP = 64;
    private static final ThreadLocal<ByteBuffer> DISCARD = ThreadLocal.withInitial(() -> ByteBuffer.allocate(8192));

    private final Settings settings;
    private final Sequencer sequencer;
    private final XmlRequestParser parser;
    private final XmlReplyWriter writer = new XmlReplyWriter();
    private final AtomicInteger open = new AtomicInteger();
    /** Replies too big for one non-blocking write, handed to the I/O thread to finish. */
    private final Queue<Connection> unfinishedWrites = new ConcurrentLinkedQueue<>();
    /** Connections being read or drained: I/O thread only. */
    private final Set<Connection> reading = new HashSet<>();
    /** Connections waiting for the engine, oldest first: I/O thread only (the reply timeout is the same for all). */
    private final ArrayDeque<Connection> waiting = new ArrayDeque<>();
    /** Where the I/O thread reads into before a frame takes the bytes. */
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(64 * 1024);

    private final long readTimeoutNanos;
    private final long frameDeadlineNanos;
    private final long replyTimeoutNanos;
    private volatile ServerSocketChannel listener;
    private volatile boolean running;
    private Selector selector;
    private Thread ioThread;

    /**
     * @param maxMessageBytes largest XML body accepted
     * @param readTimeoutMillis longest time without any byte arriving while a request is read
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
        this.parser = new XmlRequestParser(settings.maxItems());
        this.readTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(settings.readTimeoutMillis());
        this.frameDeadlineNanos = TimeUnit.MILLISECONDS.toNanos(settings.requestDeadlineMillis());
        this.replyTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(settings.replyTimeoutMillis());
    }

    /** Binds and starts accepting; returns the bound port (useful when the configured port is 0). */
    public synchronized int start() {
        if (listener != null) return port();
        try {
            ServerSocketChannel channel = ServerSocketChannel.open();
            channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            channel.bind(
                    new InetSocketAddress(InetAddress.getByName(settings.host()), settings.port()), settings.backlog());
            channel.configureBlocking(false);
            selector = Selector.open();
            channel.register(selector, SelectionKey.OP_ACCEPT);
            listener = channel;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not listen on TCP " + settings.host() + ":" + settings.port(), e);
        }
        running = true;
        ioThread = Thread.ofPlatform().name("exchange-xml-io").daemon().start(this::ioLoop);
        InetSocketAddress bound = boundAddress();
        if (bound != null && !bound.getAddress().isLoopbackAddress()) {
            log.warn(
                    "Exchange XML protocol listening on {}:{}, beyond loopback: it carries no credentials, so anyone"
                            + " who can reach this address can create accounts and trade on any of them",
                    bound.getAddress().getHostAddress(),
                    bound.getPort());
        } else {
            log.info("Exchange XML protocol listening on TCP port {} ({})", port(), settings.host());
        }
        return port();
    }

    /** The bound port, or -1 when not listening. */
    public int port() {
        InetSocketAddress bound = boundAddress();
        return bound == null ? -1 : bound.getPort();
    }

    /** The address and port listened on, or null when not listening. */
    public InetSocketAddress boundAddress() {
        ServerSocketChannel channel = listener;
        if (channel == null) return null;
        try {
            return (InetSocketAddress) channel.getLocalAddress();
        } catch (IOException e) {
            return null;
        }
    }

    private void ioLoop() {
        long nextSweep = System.nanoTime();
        while (running) {
            try {
                selector.select(this::ready, SWEEP_MILLIS);
                finishUnfinishedWrites();
                long now = System.nanoTime();
                if (now - nextSweep >= 0) {
                    sweep(now);
                    nextSweep = now + TimeUnit.MILLISECONDS.toNanos(SWEEP_MILLIS);
                }
            } catch (IOException | RuntimeException e) {
                if (running) log.warn("XML server I/O loop failed; continuing", e);
            }
        }
    }

    private void ready(SelectionKey key) {
        try {
            if (key.isAcceptable()) {
                acceptWaiting();
                return;
            }
            Connection connection = (Connection) key.attachment();
            if (key.isWritable()) continueWriting(connection);
            else if (key.isReadable()) {
                if (connection.draining) drain(connection);
                else read(connection);
            }
        } catch (CancelledKeyException e) {
            // Closed by the thread that wrote its reply: nothing left to do.
        }
    }

    private void acceptWaiting() {
        for (int i = 0; i < ACCEPTS_PER_WAKE_UP; i++) {
            SocketChannel channel;
            try {
                channel = listener.accept();
            } catch (IOException e) {
                log.warn("Accept failed", e);
                return;
            }
            if (channel == null) return;
            if (open.incrementAndGet() > settings.maxConnections()) {
                open.decrementAndGet();
                refuse(channel);
                continue;
            }
            long now = System.nanoTime();
            Connection connection =
                    new Connection(channel, new FrameDecoder(settings.maxMessageBytes()), now, frameDeadlineNanos);
            try {
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            } catch (IOException e) {
                close(connection);
                continue;
            }
            // The request usually arrived with the connection: read it now, register only if it has not.
            read(connection);
        }
    }

    /** Reads what has arrived; answers a complete frame, or waits for more. */
    private void read(Connection connection) {
        try {
            while (true) {
                readBuffer.clear();
                int n = connection.channel.read(readBuffer);
                if (n < 0) {
                    fail(connection, connection.frame.endOfStream());
                    return;
                }
                if (n == 0) {
                    if (connection.key == null) {
                        connection.key = connection.channel.register(selector, SelectionKey.OP_READ, connection);
                        reading.add(connection);
                    }
                    return;
                }
                connection.lastReadNanos = System.nanoTime();
                readBuffer.flip();
                if (connection.frame.feed(readBuffer)) {
                    answer(connection);
                    return;
                }
            }
        } catch (ProtocolException e) {
            fail(connection, e.getMessage());
        } catch (IOException e) {
            log.debug("Client went away: {}", e.getMessage());
            reading.remove(connection);
            close(connection);
        }
    }

    /** Parses a complete frame and hands it to the sequencer; the reply is written when its future completes. */
    private void answer(Connection connection) {
        reading.remove(connection);
        if (connection.key != null) connection.key.interestOps(0);
        XmlRequest request;
        try {
            request = parser.parse(connection.frame.body());
        } catch (ProtocolException e) {
            reply(connection, writer.error(e.getMessage()), true);
            return;
        }
        CompletableFuture<List<Result>> results = sequencer.submit(new RequestCommand(request));
        connection.pending = results;
        connection.replyDeadlineNanos = System.nanoTime() + replyTimeoutNanos;
        waiting.add(connection);
        results.whenComplete((done, failure) -> reply(connection, replyTo(request, done, failure), true));
    }

    private byte[] replyTo(XmlRequest request, List<Result> results, Throwable failure) {
        if (failure != null) return writer.error(why(failure));
        try {
            return writer.results(request, results);
        } catch (RuntimeException e) {
            log.error("Could not write the reply to a request that was applied", e);
            return writer.error("internal error");
        }
    }

    private static String why(Throwable failure) {
        Throwable cause =
                failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof CancellationException) {
            return "exchange did not answer in time; the request may not have been applied";
        }
        if (cause instanceof ExchangeUnavailableException unavailable) return unavailable.getMessage();
        return "internal error";
    }

    /** An error reply to a request that could not be read to its end (I/O thread). */
    private void fail(Connection connection, String why) {
        reading.remove(connection);
        reply(connection, writer.error(why), false);
    }

    /** Writes the reply (any thread); what a non-blocking write cannot take now, the I/O thread finishes. */
    private void reply(Connection connection, byte[] reply, boolean fullyRead) {
        try {
            ByteBuffer out = ByteBuffer.wrap(reply);
            connection.channel.write(out);
            if (out.hasRemaining()) {
                connection.unwritten = out;
                connection.fullyRead = fullyRead;
                unfinishedWrites.add(connection);
                selector.wakeup();
                return;
            }
            replied(connection, fullyRead);
        } catch (IOException | RuntimeException e) {
            log.debug("Could not write a reply: {}", e.getMessage());
            close(connection);
        }
    }

    private void finishUnfinishedWrites() {
        Connection connection;
        while ((connection = unfinishedWrites.poll()) != null) {
            try {
                if (connection.key == null) {
                    connection.key = connection.channel.register(selector, SelectionKey.OP_WRITE, connection);
                } else {
                    connection.key.interestOps(SelectionKey.OP_WRITE);
                }
            } catch (IOException | RuntimeException e) {
                close(connection);
            }
        }
    }

    private void continueWriting(Connection connection) {
        try {
            connection.channel.write(connection.unwritten);
            if (connection.unwritten.hasRemaining()) return;
            connection.unwritten = null;
            connection.key.interestOps(0);
            replied(connection, connection.fullyRead);
        } catch (IOException e) {
            log.debug("Could not write a reply: {}", e.getMessage());
            close(connection);
        }
    }

    /**
     * Ends the connection after its whole reply was written. Bytes a client sent beyond its declared length
     * (a trailing newline, say) are dropped first: closing a socket with unread input resets the connection,
     * and the client could lose the reply. After an error to a request that was not read to its end, the I/O
     * thread reads (and drops) what the client still sends for a moment, for the same reason.
     */
    private void replied(Connection connection, boolean fullyRead) throws IOException {
        connection.channel.shutdownOutput();
        if (fullyRead) {
            discardAvailable(connection);
            close(connection);
            return;
        }
        // Only requests the I/O thread failed end up here, and on the I/O thread.
        connection.draining = true;
        connection.drainUntilNanos = System.nanoTime() + DRAIN_NANOS;
        if (connection.key == null) {
            connection.key = connection.channel.register(selector, SelectionKey.OP_READ, connection);
        } else {
            connection.key.interestOps(SelectionKey.OP_READ);
        }
        reading.add(connection);
        drain(connection);
    }

    private static void discardAvailable(Connection connection) throws IOException {
        ByteBuffer sink = DISCARD.get();
        int discarded = 0;
        int n;
        do {
            sink.clear();
            n = connection.channel.read(sink);
            discarded += Math.max(n, 0);
        } while (n > 0 && discarded < DRAIN_LIMIT);
    }

    private void drain(Connection connection) {
        try {
            int n;
            do {
                readBuffer.clear();
                n = connection.channel.read(readBuffer);
                connection.drained += Math.max(n, 0);
            } while (n > 0 && connection.drained < DRAIN_LIMIT);
            if (n == 0 && connection.drained < DRAIN_LIMIT) return;
        } catch (IOException e) {
            // The client went away: either way we are done.
        }
        reading.remove(connection);
        close(connection);
    }

    /** Read timeouts, request deadlines, drains that ran their time, replies the engine did not give in time. */
    private void sweep(long now) {
        List<Connection> expired = new ArrayList<>();
        for (Connection connection : reading) {
            if (connection.draining ? now - connection.drainUntilNanos >= 0 : stalled(connection, now)) {
                expired.add(connection);
            }
        }
        for (Connection connection : expired) {
            if (connection.draining) {
                reading.remove(connection);
                close(connection);
            } else {
                fail(
                        connection,
                        now - connection.lastReadNanos >= readTimeoutNanos
                                ? connection.frame.timedOut()
                                : "request took too long to arrive");
            }
        }
        Connection oldest;
        while ((oldest = waiting.peek()) != null) {
            if (!oldest.pending.isDone() && now - oldest.replyDeadlineNanos < 0) break;
            waiting.poll();
            // Cancelling makes the sequencer skip the command if it has not run yet; the reply says so.
            oldest.pending.cancel(false);
        }
    }

    private boolean stalled(Connection connection, long now) {
        return now - connection.lastReadNanos >= readTimeoutNanos || now - connection.deadlineNanos >= 0;
    }

    private void refuse(SocketChannel channel) {
        try (channel) {
            channel.configureBlocking(false);
            channel.write(ByteBuffer.wrap(writer.error("server busy, try again")));
            channel.shutdownOutput();
        } catch (IOException e) {
            log.debug("Could not tell a client the server is busy", e);
        }
    }

    private void close(Connection connection) {
        if (!connection.markClosed()) return;
        open.decrementAndGet();
        try {
            connection.channel.close();
        } catch (IOException e) {
            log.debug("Closing a connection failed", e);
        }
    }

    @Override
    public synchronized void close() {
        ServerSocketChannel channel = listener;
        if (channel == null) return;
        running = false;
        selector.wakeup();
        if (ioThread != null) {
            try {
                ioThread.join(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            channel.close();
        } catch (IOException e) {
            log.debug("Closing the listener failed", e);
        }
        for (SelectionKey key : selector.keys()) {
            if (key.attachment() instanceof Connection connection) close(connection);
        }
        try {
            selector.close();
        } catch (IOException e) {
            log.debug("Closing the selector failed", e);
        }
        reading.clear();
        waiting.clear();
        listener = null;
    }
}
