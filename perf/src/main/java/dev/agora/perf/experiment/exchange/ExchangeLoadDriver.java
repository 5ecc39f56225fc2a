package dev.agora.perf.experiment.exchange;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;

/**
 * Closed-loop clients of the exchange's XML protocol, all driven by one thread over non-blocking sockets. Each
 * client keeps exactly one request outstanding on a connection of its own: connect, write the framed request in
 * one write, read the reply to end of stream, close, and at once the next request on a new connection.
 *
 * <p>The same load as one blocking thread per client, but the load generator shares the machine with what it
 * measures, and a thread per client costs a thread wake-up per reply: here one selector wake-up serves every
 * reply that ended meanwhile.
 */
final class ExchangeLoadDriver {

    /** One client's requests and what it makes of the replies; called on the driver's thread only. */
    interface Conversation {

        /** The next framed request, from position to limit; the buffer may be reused for each request. */
        ByteBuffer nextRequest();

        /** Where replies are read to; the driver clears it before each request. */
        ByteBuffer replyBuffer();

        /** The reply, from 0 to the reply buffer's position, ended after {@code nanos}. */
        void replied(long nanos);

        /** The exchange failed (connection refused or reset, or no reply in time) after {@code nanos}. */
        void failed(long nanos);
    }

    private final InetSocketAddress address;
    private final long timeoutNanos;

    ExchangeLoadDriver(InetSocketAddress address, Duration timeout) {
        this.address = address;
        this.timeoutNanos = timeout.toNanos();
    }

    /**
     * Runs every conversation for {@code duration}: requests start until then, and the driver returns when the
     * last of them has ended (or timed out).
     */
    void run(List<? extends Conversation> conversations, Duration duration) throws IOException {
        try (Selector selector = Selector.open()) {
            Loop loop = new Loop(selector, System.nanoTime() + duration.toNanos());
            for (Conversation conversation : conversations) loop.start(new Exchange(conversation));
            while (loop.outstanding > 0 || !loop.afterFailure.isEmpty()) {
                if (loop.afterFailure.isEmpty()) selector.select(loop::ready, 100);
                else selector.selectNow(loop::ready);
                loop.startAfterFailures();
                loop.failTimedOut();
            }
        }
    }

    /** One client's request in flight. */
    private static final class Exchange {
        final Conversation conversation;
        SocketChannel channel;
        ByteBuffer request;
        long startedNanos;

        Exchange(Conversation conversation) {
            this.conversation = conversation;
        }
    }

    private final class Loop {
        private final Selector selector;
        private final long endNanos;
        /** Clients whose request failed, to start again from the loop rather than from inside the failure. */
        final ArrayDeque<Exchange> afterFailure = new ArrayDeque<>();

        int outstanding;

        Loop(Selector selector, long endNanos) {
            this.selector = selector;
            this.endNanos = endNanos;
        }

        void start(Exchange exchange) {
            exchange.request = exchange.conversation.nextRequest();
            exchange.conversation.replyBuffer().clear();
            outstanding++;
            exchange.startedNanos = System.nanoTime();
            try {
                SocketChannel channel = SocketChannel.open();
                exchange.channel = channel;
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                // On loopback the handshake is usually over when connect returns: no wake-up spent waiting for it.
                if (channel.connect(address) || channel.finishConnect()) send(exchange, null);
                else channel.register(selector, SelectionKey.OP_CONNECT, exchange);
            } catch (IOException e) {
                fail(exchange);
            }
        }

        void ready(SelectionKey key) {
            Exchange exchange = (Exchange) key.attachment();
            try {
                if (key.isConnectable()) {
                    if (exchange.channel.finishConnect()) send(exchange, key);
                } else if (key.isWritable()) {
                    send(exchange, key);
                } else if (key.isReadable()) {
                    receive(exchange);
                }
            } catch (IOException e) {
                fail(exchange);
            }
        }

        private void send(Exchange exchange, SelectionKey key) throws IOException {
            exchange.channel.write(exchange.request);
            int interest = exchange.request.hasRemaining() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ;
            if (key == null) exchange.channel.register(selector, interest, exchange);
            else key.interestOps(interest);
        }

        private void receive(Exchange exchange) throws IOException {
            ByteBuffer reply = exchange.conversation.replyBuffer();
            int n;
            do {
                n = exchange.channel.read(reply);
            } while (n > 0 && reply.hasRemaining());
            // A reply that fills the buffer is taken as it is, as the blocking client does.
            if (n == 0 && reply.hasRemaining()) return;
            long nanos = System.nanoTime() - exchange.startedNanos;
            exchange.channel.close();
            outstanding--;
            exchange.conversation.replied(nanos);
            next(exchange);
        }

        private void fail(Exchange exchange) {
            long nanos = System.nanoTime() - exchange.startedNanos;
            closeQuietly(exchange.channel);
            outstanding--;
            exchange.conversation.failed(nanos);
            if (System.nanoTime() - endNanos < 0) afterFailure.add(exchange);
        }

        private void next(Exchange exchange) {
            if (System.nanoTime() - endNanos < 0) start(exchange);
        }

        void startAfterFailures() {
            for (int n = afterFailure.size(); n > 0; n--) start(afterFailure.poll());
        }

        /** Requests still open long after the run ended get no reply any more: they fail, so the run ends. */
        void failTimedOut() {
            long now = System.nanoTime();
            if (now - endNanos < timeoutNanos) return;
            for (SelectionKey key : List.copyOf(selector.keys())) {
                Exchange exchange = (Exchange) key.attachment();
                if (exchange.channel.isOpen() && now - exchange.startedNanos >= timeoutNanos) {
                    closeQuietly(exchange.channel);
                    outstanding--;
                    exchange.conversation.failed(now - exchange.startedNanos);
                }
            }
        }

        private static void closeQuietly(SocketChannel channel) {
            if (channel == null) return;
            try {
                channel.close();
            } catch (IOException e) {
                // Already broken: nothing more to release.
            }
        }
    }
}
