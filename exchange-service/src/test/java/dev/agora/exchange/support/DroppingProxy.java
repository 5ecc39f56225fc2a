package dev.agora.exchange.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy on loopback in front of one server, for tests that cut a link: {@link #dropReplies()} drops what the
 * server sends from then on while what the client sends still arrives (the server acts on requests whose answers never
 * come back), and {@link #heal()} closes every connection it carried, as a peer eventually sees of a connection that
 * lost bytes. Connections made after the heal pass normally.
 */
public final class DroppingProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final int target;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean dropping;
    private volatile boolean closed;

    public DroppingProxy(int target) throws IOException {
        this.target = target;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().name("dropping-proxy-" + target).start(this::accept);
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** From now on, the server's bytes are read and dropped. */
    public void dropReplies() {
        dropping = true;
    }

    /** Closes every connection made so far and lets new ones pass both ways. */
    public void heal() {
        dropping = false;
        for (Socket socket : open) closeQuietly(socket);
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), target);
                open.add(client);
                open.add(server);
                Thread.ofVirtual().start(() -> pump(client, server, false));
                Thread.ofVirtual().start(() -> pump(server, client, true));
            } catch (IOException e) {
                if (closed) return;
            }
        }
    }

    private void pump(Socket from, Socket to, boolean replies) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            int read;
            while ((read = in.read(buffer)) >= 0) {
                if (replies && dropping) continue;
                out.write(buffer, 0, read);
                out.flush();
            }
        } catch (IOException e) {
            // Closed by the other side or by heal().
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            open.remove(from);
            open.remove(to);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // Already closed.
        }
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(listener);
        heal();
    }

    private static void closeQuietly(ServerSocket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // Already closed.
        }
    }
}
