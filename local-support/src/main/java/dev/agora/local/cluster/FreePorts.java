package dev.agora.local.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports nobody listens on right now, for processes that must be told their port before they start (a service's
 * peers need its URL). Between the lookup and the child's bind another process may take the port; {@link
 * dev.agora.local.process.ServiceProcess#awaitReady} notices that instead of taking the other one for ready.
 *
 * <p>The ports come from outside the kernel's ephemeral range ({@code net.ipv4.ip_local_port_range}): a port the
 * kernel handed out for {@code bind(0)} is one it also hands out as the source port of any outgoing connection, and
 * with test modules running side by side (JDBC, HTTP clients) one of those took a frontend's port in the seconds
 * before the frontend bound it. Above the range (61000-65535 by default) only processes that ask for a port by
 * number use it; a random start and the ports this JVM already handed out keep concurrent users apart.
 */
public final class FreePorts {

    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final int DEFAULT_EPHEMERAL_LOW = 32768;
    private static final int DEFAULT_EPHEMERAL_HIGH = 60999;
    /** Fewer ports than this outside the range: take ephemeral ones after all. */
    private static final int ENOUGH = 1000;

    private static final Set<Integer> handedOut = ConcurrentHashMap.newKeySet();

    private FreePorts() {}

    /** A port on 127.0.0.1 that was free a moment ago and that this JVM has not handed out before. */
    public static int next() {
        int[] range = usableRange();
        if (range != null) {
            int size = range[1] - range[0] + 1;
            int start = ThreadLocalRandom.current().nextInt(size);
            for (int i = 0; i < size; i++) {
                int port = range[0] + (start + i) % size;
                if (!handedOut.contains(port) && isFree(port) && handedOut.add(port)) return port;
            }
        }
        return ephemeral();
    }

    /** {@code http://127.0.0.1:<port>}. */
    public static String url(int port) {
        return "http://127.0.0.1:" + port;
    }

    /** Above the ephemeral range if there is room there, else below it; null where neither has enough ports. */
    static int[] usableRange() {
        int low = DEFAULT_EPHEMERAL_LOW;
        int high = DEFAULT_EPHEMERAL_HIGH;
        try {
            String[] bounds = Files.readString(EPHEMERAL_RANGE).strip().split("\\s+");
            low = Integer.parseInt(bounds[0]);
            high = Integer.parseInt(bounds[1]);
        } catch (IOException | RuntimeException notLinux) {
            // the usual Linux default
        }
        if (65535 - high >= ENOUGH) return new int[] {high + 1, 65535};
        if (low - 1 - 10_000 >= ENOUGH) return new int[] {10_000, low - 1};
        return null;
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException taken) {
            return false;
        }
    }

    private static int ephemeral() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            handedOut.add(socket.getLocalPort());
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("No free port on 127.0.0.1", e);
        }
    }
}
