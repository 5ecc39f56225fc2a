package dev.agora.exchange.xml;

import dev.agora.exchange.matching.Result;
import dev.agora.exchange.sequencer.ExchangeUnavailableException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslHandler;
import java.io.IOException;
import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection of the XML protocol, from its first byte to its close: decodes the frame (a
 * {@link ByteToMessageDecoder}, so Netty's cumulation holds the bytes as they arrive and only as many as arrived),
 * hands the request to the sequencer, completes stored answers through the order history, writes the one reply, and
 * closes. Netty runs it on the connection's event loop; the reply is handed back to that loop by whichever thread
 * finished it (normally the committer, right after the batch's durable commit).
 *
 * <p>Timeouts, checked by the loop's {@link ConnectionClock} rather than a timer each: the whole frame must arrive
 * within the request deadline, with no gap longer than the read timeout; the engine must answer within the reply
 * timeout; the reply must be taken by the client within the write timeout; and a connection doing nothing at all for
 * the idle timeout is closed.
 *
 * <p>After a reply to a request read to its end, the connection closes at once, as the selector loop this replaced
 * did: everything the client sent has been read, so the close ends the stream cleanly. Only after an error to a
 * request that was not read to its end (bad framing, a timeout) does it half-close and drain what the client still
 * sends, so that the client is not reset before it reads the error. (Half-closing every connection cost an exception
 * with its stack trace per connection in Netty, the client's FIN as one more event, and a drain timer.)
 */
final class XmlConnection extends ByteToMessageDecoder {

    private static final Logger log = LoggerFactory.getLogger(XmlConnection.class);
    /** After an error to a request not read to its end, what a client still sends is dropped this long (at most). */
    private static final long DRAIN_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private static final int DRAIN_LIMIT = 64 * 1024;

    private enum State {
        READING,
        ANSWERING,
        WRITING,
        REPLIED,
        CLOSED
    }

    private final XmlServerContext server;
    private final LengthLine lengthLine;
    private final ConnectionLimits limits;
    private final InetAddress address;
    private final boolean tls;
    private final long readTimeoutNanos;
    private final long writeTimeoutNanos;
    private final long idleTimeoutNanos;
    private State state = State.READING;
    private ChannelHandlerContext ctx;
    private ConnectionClock clock;
    /** Neighbours in the clock's list of connections. */
    XmlConnection previous;

    XmlConnection next;
    private long lastReadNanos;
    private long lastWriteNanos;
    private long requestDeadlineNanos;
    private long replyDeadlineNanos;
    private long writeStartedNanos;
    private long drainUntilNanos;
    /** The request was not read to its end: after the reply, drain before closing. */
    private boolean drainAfterReply;

    private CompletableFuture<List<Result>> applied;
    private CompletableFuture<byte[]> replied;
    private int drained;

    XmlConnection(XmlServerContext server, ConnectionLimits limits, InetAddress address, boolean tls) {
        this.server = server;
        this.limits = limits;
        this.address = address;
        this.tls = tls;
        this.lengthLine = new LengthLine(server.settings().maxMessageBytes());
        this.readTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(server.settings().readTimeoutMillis());
        this.writeTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(server.settings().writeTimeoutMillis());
        this.idleTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(server.settings().idleTimeoutMillis());
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        long now = System.nanoTime();
        lastReadNanos = now;
        lastWriteNanos = now;
        requestDeadlineNanos =
                now + TimeUnit.MILLISECONDS.toNanos(server.settings().requestDeadlineMillis());
        clock = server.clock(ctx.executor());
        clock.add(this);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) throws Exception {
        lastReadNanos = System.nanoTime();
        super.channelRead(ctx, message);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (state != State.READING) {
            drained += in.readableBytes();
            in.skipBytes(in.readableBytes());
            if (state == State.REPLIED && drained >= DRAIN_LIMIT) ctx.close();
            return;
        }
        try {
            while (!lengthLine.complete() && in.isReadable()) lengthLine.feed(in.readByte());
        } catch (ProtocolException e) {
            in.skipBytes(in.readableBytes());
            fail(ctx, e.getMessage());
            return;
        }
        if (!lengthLine.complete() || in.readableBytes() < lengthLine.length()) return;
        byte[] xml = new byte[lengthLine.length()];
        in.readBytes(xml);
        // Bytes beyond the declared length were never part of the request.
        in.skipBytes(in.readableBytes());
        answer(ctx, xml);
    }

    /** Body bytes received so far (the cumulation holds exactly those once the length line is read). */
    private int received() {
        ByteBuf buffer = internalBuffer();
        return buffer == null ? 0 : buffer.readableBytes();
    }

    private void answer(ChannelHandlerContext ctx, byte[] xml) {
        state = State.ANSWERING;
        XmlRequest request;
        try {
            request = server.parser().parse(xml);
        } catch (ProtocolException e) {
            reply(ctx, server.writer().error(e.getMessage()));
            return;
        }
        long reserved = 64L * request.items().size() + xml.length + 64;
        if (!server.reserveReplyBytes(reserved)) {
            reply(ctx, server.writer().error(ConnectionLimits.Refusal.GLOBAL.message));
            return;
        }
        AccountPermission permission;
        try {
            permission = permission(ctx);
        } catch (SSLPeerUnverifiedException e) {
            server.replyBytesPending(-reserved);
            reply(ctx, server.writer().error("no client certificate"));
            return;
        }
        replyDeadlineNanos = System.nanoTime()
                + TimeUnit.MILLISECONDS.toNanos(server.settings().replyTimeoutMillis());
        applied = server.sequencer().submit(new RequestCommand(request, permission));
        replied = new CompletableFuture<>();
        CompletableFuture<byte[]> reply = replied;
        applied.thenCompose(server.history()::completeAll)
                .whenComplete((results, failure) -> reply.complete(replyTo(request, results, failure)));
        // One hand-over to the event loop per reply: the reply is written there.
        reply.thenAccept(bytes -> ctx.executor().execute(() -> {
            server.replyBytesPending(-reserved);
            if (state == State.ANSWERING) reply(ctx, bytes);
        }));
    }

    /** The engine did not answer within the reply timeout (clock, event loop). */
    private void replyTimedOut() {
        replyDeadlineNanos = Long.MAX_VALUE;
        if (replied.isDone()) return;
        // Counted before cancelling: the cancellation itself completes the reply (through the chain in answer()).
        server.timedOut(XmlServerContext.Timeout.REPLY);
        // Cancelling makes the sequencer skip the command if it has not run yet; the reply says so.
        applied.cancel(false);
        replied.complete(server.writer().error(why(new CancellationException())));
    }

    private AccountPermission permission(ChannelHandlerContext ctx) throws SSLPeerUnverifiedException {
        if (!tls) return AccountPermission.ANY;
        SslHandler handler = ctx.pipeline().get(SslHandler.class);
        return CertificateAccounts.of(handler.engine().getSession().getPeerCertificates());
    }

    private byte[] replyTo(XmlRequest request, List<Result> results, Throwable failure) {
        if (failure != null) return server.writer().error(why(failure));
        try {
            return server.writer().results(request, results);
        } catch (RuntimeException e) {
            log.error("Could not write the reply to a request that was applied", e);
            return server.writer().error("internal error");
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

    /** An error reply to a request that could not be read (to its end, or at all). */
    private void fail(ChannelHandlerContext ctx, String why) {
        drainAfterReply = true;
        reply(ctx, server.writer().error(why));
    }

    /** Writes the one reply (event loop); its bytes count against the server's reply budget until written. */
    private void reply(ChannelHandlerContext ctx, byte[] reply) {
        state = State.WRITING;
        writeStartedNanos = System.nanoTime();
        byte[] bytes = reply;
        if (bytes.length > server.settings().maxReplyBytes()) {
            bytes = server.writer()
                    .error("reply of " + reply.length + " bytes is larger than the maximum of "
                            + server.settings().maxReplyBytes() + " bytes; ask for less at once");
        }
        int length = bytes.length;
        server.replyBytesPending(length);
        ctx.writeAndFlush(Unpooled.wrappedBuffer(bytes)).addListener(written -> {
            server.replyBytesPending(-length);
            if (written.isSuccess()) replied(ctx);
            else ctx.close();
        });
    }

    /**
     * After the whole reply was written: closes, unless the request was not read to its end on a plain connection.
     * Then it half-closes, so the client reads to end of stream, and closes once the client has (or after a short
     * drain): closing a socket with unread input would reset the connection, and the client could lose the reply.
     */
    private void replied(ChannelHandlerContext ctx) {
        lastWriteNanos = System.nanoTime();
        if (!drainAfterReply || tls || !(ctx.channel() instanceof DuplexChannel duplex) || duplex.isInputShutdown()) {
            ctx.close();
            return;
        }
        state = State.REPLIED;
        drainUntilNanos = lastWriteNanos + DRAIN_NANOS;
        duplex.shutdownOutput();
    }

    /** Ends the phase that ran out of time, if one did (the loop's clock calls this on the event loop). */
    void checkTimeouts(long now) {
        switch (state) {
            case READING -> {
                if (now - lastReadNanos >= readTimeoutNanos) {
                    server.timedOut(XmlServerContext.Timeout.READ);
                    fail(ctx, lengthLine.timedOut(received()));
                    return;
                }
                if (now - requestDeadlineNanos >= 0) {
                    server.timedOut(XmlServerContext.Timeout.DEADLINE);
                    fail(ctx, "request took too long to arrive");
                    return;
                }
            }
            case ANSWERING -> {
                if (now - replyDeadlineNanos >= 0) replyTimedOut();
            }
            case WRITING -> {
                if (now - writeStartedNanos >= writeTimeoutNanos) {
                    server.timedOut(XmlServerContext.Timeout.WRITE);
                    ctx.close();
                    return;
                }
            }
            case REPLIED -> {
                if (now - drainUntilNanos >= 0) {
                    ctx.close();
                    return;
                }
            }
            case CLOSED -> {
                clock.remove(this);
                return;
            }
        }
        if (now - Math.max(lastReadNanos, lastWriteNanos) >= idleTimeoutNanos) {
            server.timedOut(XmlServerContext.Timeout.IDLE);
            ctx.close();
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        super.userEventTriggered(ctx, event);
        if (event instanceof ChannelInputShutdownEvent) {
            if (state == State.READING) fail(ctx, lengthLine.endOfStream(received()));
            else if (state == State.REPLIED) ctx.close();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!(cause instanceof IOException)) log.debug("XML connection failed", cause);
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        closed();
        super.channelInactive(ctx);
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        closed();
    }

    /** Leaves the clock and gives the connection's slot back, once. */
    private void closed() {
        if (state == State.CLOSED) return;
        state = State.CLOSED;
        if (clock != null) clock.remove(this);
        limits.closed(address);
    }
}
