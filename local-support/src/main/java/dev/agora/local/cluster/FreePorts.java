package dev.agora.local.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * Ports nobody listens on right now, for processes that must be told their port before they start (a service's
 * peers need its URL). Between the lookup and the child's bind another process may take the port; {@link
 * dev.agora.local.process.ServiceProcess#awaitReady} notices that instead of taking the other one for ready.
 */
public final class FreePorts {

    private FreePorts() {}

    /** A port on 127.0.0.1 that was free a moment ago. */
    public static int next() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("No free port on 127.0.0.1", e);
        }
    }

    /** {@code http://127.0.0.1:<port>}. */
    public static String url(int port) {
        return "http://127.0.0.1:" + port;
    }
}
