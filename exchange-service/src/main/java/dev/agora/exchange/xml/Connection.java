package dev.agora.exchange.xml;

import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One client connection of the XML server and where it stands: reading its frame (I/O thread), waiting for
 * the engine (the reply is written by whichever thread completes it), or draining after an error reply (I/O
 * thread). One owner at a time, so the fields need no locks.
 */
final class Connection {

    final SocketChannel channel;
    final FrameDecoder frame;
    final long deadlineNanos;
    long lastReadNanos;
    SelectionKey key;

    /** Waiting for the engine: the reply's future and when to stop waiting. */
    CompletableFuture<?> pending;

    long replyDeadlineNanos;

    /** After an error reply to a request not read to its end: reading and dropping input until then. */
    boolean draining;

    long drainUntilNanos;
    int drained;

    /** A reply that did not fit into one non-blocking write, and whether the request was read to its end. */
    ByteBuffer unwritten;

    boolean fullyRead;
    private final AtomicBoolean closed = new AtomicBoolean();

    Connection(SocketChannel channel, FrameDecoder frame, long acceptedNanos, long frameDeadlineNanos) {
        this.channel = channel;
        this.frame = frame;
        this.lastReadNanos = acceptedNanos;
        this.deadlineNanos = acceptedNanos + frameDeadlineNanos;
    }

    /** True for the one caller that gets to close it. */
    boolean markClosed() {
        return closed.compareAndSet(false, true);
    }
}
