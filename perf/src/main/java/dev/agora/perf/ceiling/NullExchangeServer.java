package dev.agora.perf.ceiling;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * The machine's ceiling for the exchange protocol's connection pattern: a server that does everything the
 * exchange's XML server does on the wire (accept, read one length-framed request, write one reply, close) and
 * nothing else: no parsing, no engine, no database. With the same load generator on the same cores, what it
 * reaches is the most any exchange could reach there, and what it costs per request is the part of the
 * exchange's cost that one connection per request imposes.
 *
 * <p>Run as its own process ({@code main}), so that it competes with the load generator for the cores as the
 * exchange does; it prints its port on the first line of its standard output.
 */
public final class NullExchangeServer {

    /** What a create of one account and one position gets from the exchange, in shape and size. */
    static final byte[] REPLY =
            "<results><created id=\"1\"/><created sym=\"SPY\" id=\"1\"/></results>".getBytes(StandardCharsets.US_ASCII);

    private static final int MAX_FRAME = 64 * 1024;

    private NullExchangeServer() {}

    public static void main(String[] args) throws IOException {
        try (ServerSocketChannel listener = ServerSocketChannel.open();
                Selector selector = Selector.open()) {
            listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4096);
            listener.configureBlocking(false);
            listener.register(selector, SelectionKey.OP_ACCEPT);
            System.out.println(((InetSocketAddress) listener.getLocalAddress()).getPort());
            System.out.flush();
            ByteBuffer reply = ByteBuffer.wrap(REPLY);
            while (true) {
                selector.select(key -> {
                    try {
                        if (key.isAcceptable()) accept(listener, selector);
                        else if (key.isReadable()) read(key, reply);
                    } catch (IOException e) {
                        closeQuietly(key);
                    }
                });
            }
        }
    }

    private static void accept(ServerSocketChannel listener, Selector selector) throws IOException {
        SocketChannel connection;
        while ((connection = listener.accept()) != null) {
            connection.configureBlocking(false);
            connection.setOption(StandardSocketOptions.TCP_NODELAY, true);
            connection.register(selector, SelectionKey.OP_READ, ByteBuffer.allocate(1024));
        }
    }

    private static void read(SelectionKey key, ByteBuffer reply) throws IOException {
        SocketChannel connection = (SocketChannel) key.channel();
        ByteBuffer frame = (ByteBuffer) key.attachment();
        if (!frame.hasRemaining()) {
            if (frame.capacity() >= MAX_FRAME) throw new IOException("frame too large");
            frame = ByteBuffer.allocate(frame.capacity() * 2).put(frame.flip());
            key.attach(frame);
        }
        if (connection.read(frame) < 0) throw new IOException("closed before a whole frame");
        if (!complete(frame)) return;
        connection.write(reply.clear());
        key.cancel();
        connection.close();
    }

    /** Whether the buffer holds the length line and as many bytes of XML as it announced. */
    static boolean complete(ByteBuffer frame) throws IOException {
        int length = 0;
        for (int i = 0; i < frame.position(); i++) {
            byte b = frame.get(i);
            if (b == '\n') return frame.position() - i - 1 >= length;
            if (b < '0' || b > '9' || i > 9) throw new IOException("bad length line");
            length = length * 10 + (b - '0');
        }
        return false;
    }

    private static void closeQuietly(SelectionKey key) {
        key.cancel();
        try {
            key.channel().close();
        } catch (IOException ignored) {
            // Nothing left to tell the client.
        }
    }
}
