package dev.agora.exchange.xml;

import dev.agora.exchange.history.OrderHistory;
import dev.agora.exchange.sequencer.Sequencer;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.SingleThreadEventExecutor;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The exchange's XML protocol over TCP, on Netty: one request per connection ({@link XmlConnection}), plain or TLS
 * with client certificates. Whatever a client sends, the worst it gets is an {@code <error>} and a closed connection,
 * and what it can make the server hold is bounded: connections (in all and per client address), the bytes of one
 * request and of one reply, the reply bytes waiting for slow readers, and the time of every phase.
 *
 * <p>Netty rather than the hand-written selector loop it replaced: the loop had to re-implement what Netty's handlers
 * already do and test (cumulation, half-closure, TLS), and it had no write deadline. The timeouts are kept by one
 * {@link ConnectionClock} per event loop rather than by timeout handlers per connection: at one connection per request,
 * timers were a large part of what a request cost.
 */
public final class XmlProtocolServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(XmlProtocolServer.class);
    private static final int SEND_BUFFER_BYTES = 64 * 1024;
    private static final String LEAK_DETECTION_PROPERTY = "io.netty.leakDetection.level";

    /**
     * @param maxMessageBytes largest XML body accepted (the length line is checked before any body byte is read)
     * @param maxReplyBytes largest reply written; a larger one is replaced by an error
     * @param maxItems most children one request may hold
     * @param maxConnections connections served at once; more are told the server is busy
     * @param maxConnectionsPerAddress connections from one client address at once
     * @param maxPendingReplyBytes reply bytes written but not yet taken by clients, beyond which new requests are
     *     refused before they are applied
     * @param readTimeoutMillis longest time without any byte arriving while a request is read
     * @param requestDeadlineMillis longest time a whole request may take to arrive
     * @param replyTimeoutMillis longest wait for the engine's reply before answering with an error
     * @param writeTimeoutMillis longest time a client may take to accept the reply
     * @param idleTimeoutMillis longest time a connection may see neither a read nor a write
     * @param ioThreads event-loop threads (accepting, reading, parsing, writing)
     * @param tls server-side TLS context requiring client certificates, or null for plain TCP
     */
    public record Settings(
            String host,
            int port,
            int maxMessageBytes,
            int maxReplyBytes,
            int maxItems,
            int maxConnections,
            int maxConnectionsPerAddress,
            long maxPendingReplyBytes,
            long readTimeoutMillis,
            long requestDeadlineMillis,
            long replyTimeoutMillis,
            long writeTimeoutMillis,
            long idleTimeoutMillis,
            int ioThreads,
            int backlog,
            SslContext tls) {}

    private final Settings settings;
    private final XmlServerContext context;
    private final ConnectionLimits limits;
    private volatile Channel listener;
    private EventLoopGroup group;

    public XmlProtocolServer(Settings settings, Sequencer sequencer, OrderHistory history) {
        this.settings = settings;
        this.context = new XmlServerContext(settings, sequencer, history);
        this.limits = new ConnectionLimits(settings.maxConnections(), settings.maxConnectionsPerAddress());
    }

    /** Binds and starts accepting; returns the bound port (useful when the configured port is 0). */
    public synchronized int start() {
        if (listener != null) return port();
        openEventLoops();
        boolean epoll = Epoll.isAvailable();
        try {
            listener = bootstrap()
                    .bind(new InetSocketAddress(InetAddress.getByName(settings.host()), settings.port()))
                    .syncUninterruptibly()
                    .channel();
        } catch (UnknownHostException | RuntimeException e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            group = null;
            throw new IllegalStateException("Could not listen on TCP " + settings.host() + ":" + settings.port(), e);
        }
        InetSocketAddress bound = boundAddress();
        if (bound != null && !bound.getAddress().isLoopbackAddress() && settings.tls() == null) {
            log.warn(
                    "Exchange XML protocol listening on {}:{}, beyond loopback and without TLS: it carries no"
                            + " credentials, so anyone who can reach this address can create accounts and trade on any"
                            + " of them",
                    bound.getAddress().getHostAddress(),
                    bound.getPort());
        } else {
            log.info(
                    "Exchange XML protocol listening on TCP port {} ({}, {}, {})",
                    port(),
                    settings.host(),
                    settings.tls() == null ? "plain" : "TLS with client certificates",
                    epoll ? "epoll" : "NIO");
        }
        return port();
    }

    private ServerBootstrap bootstrap() {
        Class<? extends ServerChannel> channelType =
                Epoll.isAvailable() ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        return new ServerBootstrap()
                .group(group)
                .channel(channelType)
                .option(ChannelOption.SO_BACKLOG, settings.backlog())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                // A fixed send buffer instead of the kernel's autotuning (up to megabytes a socket): what a client
                // that never reads makes the kernel hold stays small, and the rest of a large reply stays in the
                // process, where the reply budget and the write timeout see it.
                .childOption(ChannelOption.SO_SNDBUF, SEND_BUFFER_BYTES)
                // A client may half-close after sending its request; it still gets the reply.
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .childHandler(new Initializer());
    }

    /**
     * Makes ready everything listening needs but the bind: the event loops with the native transport, and one rehearsed
     * request through the whole pipeline. Only while the sequencer is not active. A standby does this while it waits, so that taking over costs the bind alone (loading the
     * transport took seconds on a busy machine, most of the failover budget).
     */
    public synchronized void prepare() {
        if (group != null) return;
        openEventLoops();
        rehearse();
    }

    private void openEventLoops() {
        if (group != null) return;
        if (System.getProperty(LEAK_DETECTION_PROPERTY) == null) {
            // Netty's default leak detection records the stack trace of one buffer in 128: at one connection per
            // request that is a stack walk every few dozen requests, for a check this server's buffers (one read
            // buffer, one wrapped reply, both released by Netty) need only when debugging.
            // -Dio.netty.leakDetection.level
            // turns it back on.
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        group = new MultiThreadIoEventLoopGroup(
                settings.ioThreads(), new DefaultThreadFactory("exchange-xml-io", true), io);
    }

    /**
     * One request through a listener of its own on an ephemeral loopback port, closed at once: loads and runs the
     * classes of accepting, framing, parsing and replying. The request reaches a sequencer that is not active (this
     * runs only while it is not: before it starts, or after it stood down), so it changes nothing and is answered with an
     * error.
     */
    private void rehearse() {
        Channel rehearsal = null;
        try {
            rehearsal = bootstrap()
                    .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                    .syncUninterruptibly()
                    .channel();
            InetSocketAddress address = (InetSocketAddress) rehearsal.localAddress();
            try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
                socket.setSoTimeout(5_000);
                byte[] request =
                        "<transactions id=\"1\"><query id=\"1\"/></transactions>".getBytes(StandardCharsets.UTF_8);
                socket.getOutputStream().write((request.length + "\n").getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().write(request);
                socket.shutdownOutput();
                socket.getInputStream().readAllBytes();
            }
        } catch (IOException | RuntimeException e) {
            log.debug("Rehearsing the XML server failed; the first real request will load its classes", e);
        } finally {
            if (rehearsal != null) rehearsal.close().syncUninterruptibly();
        }
    }

    private final class Initializer extends ChannelInitializer<SocketChannel> {
        @Override
        protected void initChannel(SocketChannel channel) {
            InetAddress address = channel.remoteAddress().getAddress();
            ConnectionLimits.Refusal refusal = limits.tryOpen(address);
            if (refusal != null) {
                channel.pipeline().addLast(new Refuse(refusal));
                return;
            }
            boolean tls = settings.tls() != null;
            if (tls) {
                SslHandler handler = settings.tls().newHandler(channel.alloc());
                handler.setHandshakeTimeoutMillis(settings.readTimeoutMillis());
                channel.pipeline().addLast("tls", handler);
            }
            // Its timeouts are kept by the event loop's ConnectionClock, not by timeout handlers of its own; it gives
            // its
            // slot back when it closes.
            channel.pipeline().addLast("xml", new XmlConnection(context, limits, address, tls));
        }
    }

    /**
     * Tells a connection beyond a cap why it is refused (plain TCP; a TLS client just sees the close), then half-closes
     * and drops what the client sends until it closes (or for a moment): closing with its request unread would reset
     * the connection and could lose the answer.
     */
    private final class Refuse extends ChannelInboundHandlerAdapter {
        private final ConnectionLimits.Refusal refusal;

        Refuse(ConnectionLimits.Refusal refusal) {
            this.refusal = refusal;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            if (settings.tls() != null || !(ctx.channel() instanceof DuplexChannel duplex)) {
                ctx.close();
                return;
            }
            ctx.writeAndFlush(Unpooled.wrappedBuffer(context.writer().error(refusal.message)))
                    .addListener(written -> {
                        if (!written.isSuccess() || duplex.isInputShutdown()) {
                            ctx.close();
                            return;
                        }
                        duplex.shutdownOutput();
                        ctx.executor().schedule(() -> ctx.close(), 200, TimeUnit.MILLISECONDS);
                    });
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object message) {
            ReferenceCountUtil.release(message);
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
            if (event instanceof ChannelInputShutdownEvent) ctx.close();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    /** The bound port, or -1 when not listening. */
    public int port() {
        InetSocketAddress bound = boundAddress();
        return bound == null ? -1 : bound.getPort();
    }

    /** The address and port listened on, or null when not listening. */
    public InetSocketAddress boundAddress() {
        Channel channel = listener;
        return channel == null ? null : (InetSocketAddress) channel.localAddress();
    }

    // Figures for metrics (XmlServerMetrics).

    public int openConnections() {
        return limits.open();
    }

    public int clientAddresses() {
        return limits.addresses();
    }

    public long refusedConnections(boolean perAddress) {
        return limits.refused(perAddress ? ConnectionLimits.Refusal.ADDRESS : ConnectionLimits.Refusal.GLOBAL);
    }

    public long refusedForReplyBudget() {
        return context.refusedForReplyBudget();
    }

    public long pendingReplyBytes() {
        return context.pendingReplyBytes();
    }

    /** Timeouts so far of one kind: read, deadline, reply, write or idle. */
    public long timeouts(String kind) {
        return context.timeouts(XmlServerContext.Timeout.valueOf(kind.toUpperCase(java.util.Locale.ROOT)));
    }

    /** Tasks waiting in the event loops' queues (replies handed over by other threads, timers' work). */
    public int pendingIoTasks() {
        EventLoopGroup current = group;
        if (current == null) return 0;
        int tasks = 0;
        for (EventExecutor executor : current) {
            if (executor instanceof SingleThreadEventExecutor loop) tasks += loop.pendingTasks();
        }
        return tasks;
    }

    public Settings settings() {
        return settings;
    }

    /**
     * Stops listening, closes every connection and the event loops ({@link #prepare} makes them again): a loop shutting
     * down closes the connections registered with it, so connections need no list of their own.
     */
    @Override
    public synchronized void close() {
        Channel channel = listener;
        if (channel != null) {
            channel.close().syncUninterruptibly();
            listener = null;
        }
        if (group != null) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
            group = null;
        }
    }
}
