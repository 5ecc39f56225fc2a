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
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.WriteTimeoutException;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledFuture;
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
 * <p>Timeouts: the whole frame must arrive within the request deadline, with no gap longer than the read timeout
 * ({@code IdleStateHandler} before this handler); the engine must answer within the reply timeout; the reply must be
 * taken by the client within the write timeout ({@code WriteTimeoutHandler}); and a connection doing nothing at all
 * for the idle timeout is closed.
 */
final class XmlConnection extends ByteToMessageDecoder {

    private static final Logger log = LoggerFactory.getLogger(XmlConnection.class);
    /** After the reply, what a client still sends is read and dropped for this long (at most this much). */
    private static final long DRAIN_MILLIS = 200;

    private static final int DRAIN_LIMIT = 64 * 1024;

    private enum State {
        READING,
        ANSWERING,
        REPLIED
    }

    private final XmlServerContext server;
    private final LengthLine lengthLine;
    private State state = State.READING;
    private ScheduledFuture<?> deadline;
    private int drained;

    XmlConnection(XmlServerContext server) {
        this.server = server;
        this.lengthLine = new LengthLine(server.settings().maxMessageBytes());
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        deadline = ctx.executor()
                .schedule(
                        () -> requestTookTooLong(ctx),
                        server.settings().requestDeadlineMillis(),
                        TimeUnit.MILLISECONDS);
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
        deadline.cancel(false);
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
        CompletableFuture<List<Result>> applied = server.sequencer().submit(new RequestCommand(request, permission));
        CompletableFuture<byte[]> replied = new CompletableFuture<>();
        ScheduledFuture<?> timeout = ctx.executor()
                .schedule(
                        () -> {
                            // Cancelling makes the sequencer skip the command if it has not run yet; the reply says so.
                            applied.cancel(false);
                            if (replied.complete(server.writer().error(why(new CancellationException())))) {
                                server.timedOut(XmlServerContext.Timeout.REPLY);
                            }
                        },
                        server.settings().replyTimeoutMillis(),
                        TimeUnit.MILLISECONDS);
        applied.thenCompose(server.history()::completeAll)
                .whenComplete((results, failure) -> replied.complete(replyTo(request, results, failure)));
        // One hand-over to the event loop per reply: the timer is cancelled and the reply written there.
        replied.thenAccept(bytes -> ctx.executor().execute(() -> {
            timeout.cancel(false);
            server.replyBytesPending(-reserved);
            reply(ctx, bytes);
        }));
    }

    private AccountPermission permission(ChannelHandlerContext ctx) throws SSLPeerUnverifiedException {
        SslHandler tls = ctx.pipeline().get(SslHandler.class);
        if (tls == null) return AccountPermission.ANY;
        return CertificateAccounts.of(tls.engine().getSession().getPeerCertificates());
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
        state = State.ANSWERING;
        deadline.cancel(false);
        reply(ctx, server.writer().error(why));
    }

    /** Writes the one reply (from any thread); its bytes count against the server's reply budget until written. */
    private void reply(ChannelHandlerContext ctx, byte[] reply) {
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
     * After the whole reply was written: a TLS connection closes (its handler sends close_notify first). A plain one
     * half-closes, so the client reads to end of stream, and closes once the client has (or after a short drain):
     * closing a socket with unread input would reset the connection, and the client could lose the reply.
     */
    private void replied(ChannelHandlerContext ctx) {
        state = State.REPLIED;
        if (ctx.pipeline().get(SslHandler.class) != null || !(ctx.channel() instanceof DuplexChannel duplex)) {
            ctx.close();
            return;
        }
        if (duplex.isInputShutdown()) {
            ctx.close();
            return;
        }
        duplex.shutdownOutput();
        ctx.executor().schedule(() -> ctx.close(), DRAIN_MILLIS, TimeUnit.MILLISECONDS);
    }

    private void requestTookTooLong(ChannelHandlerContext ctx) {
        if (state != State.READING || !ctx.channel().isActive()) return;
        server.timedOut(XmlServerContext.Timeout.DEADLINE);
        fail(ctx, "request took too long to arrive");
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        super.userEventTriggered(ctx, event);
        if (event instanceof ChannelInputShutdownEvent) {
            if (state == State.READING) fail(ctx, lengthLine.endOfStream(received()));
            else if (state == State.REPLIED) ctx.close();
        } else if (event instanceof IdleStateEvent idle) {
            if (idle.state() == IdleState.READER_IDLE && state == State.READING) {
                server.timedOut(XmlServerContext.Timeout.READ);
                fail(ctx, lengthLine.timedOut(received()));
            } else if (idle.state() == IdleState.ALL_IDLE) {
                server.timedOut(XmlServerContext.Timeout.IDLE);
                ctx.close();
            }
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof WriteTimeoutException) {
            server.timedOut(XmlServerContext.Timeout.WRITE);
        } else if (!(cause instanceof IOException)) {
            log.debug("XML connection failed", cause);
        }
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (deadline != null) deadline.cancel(false);
        super.channelInactive(ctx);
    }
}
