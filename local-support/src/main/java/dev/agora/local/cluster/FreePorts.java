package dev.agora.local.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
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
 *
 * <p>Test JVMs of modules built side by side ({@code -T 2}) draw from the same range, and two of them once handed out
 * one port, each to a process of its own, in the seconds before either bound it. So a port is also claimed across
 * JVMs: a lock on a file named after it in {@code <java.io.tmpdir>/agora-free-ports/}, held until this JVM ends (the
 * operating system drops it then, also after {@code kill -9}); a port another live JVM holds is skipped.
 */
public final class FreePorts {

    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final int DEFAULT_EPHEMERAL_LOW = 32768;
    private static final int DEFAULT_EPHEMERAL_HIGH = 60999;
    /** Fewer ports than this outside the range: take ephemeral ones after all. */
    private static final int ENOUGH = 1000;

    private static final Set<Integer> handedOut = ConcurrentHashMap.newKeySet();
    private static final Path CLAIMS = Path.of(System.getProperty("java.io.tmpdir"), "agora-free-ports");
    /** The claims this JVM holds: open channels keep their locks (closing one would drop its lock). */
    private static final List<FileChannel> claims = new CopyOnWriteArrayList<>();

    private FreePorts() {}

    /** A port on 127.0.0.1 that was free a moment ago and that this JVM has not handed out before. */
    public static int next() {
        int[] range = usableRange();
        if (range != null) {
            int size = range[1] - range[0] + 1;
            int start = ThreadLocalRandom.current().nextInt(size);
            for (int i = 0; i < size; i++) {
                int port = range[0] + (start + i) % size;
                if (!handedOut.contains(port) && isFree(port) && handedOut.add(port)) {
                    if (claim(String.valueOf(port))) return port;
                }
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

    /**
     * Whether this JVM now holds the claim named {@code name} (a port, or a whole cluster's port offset), until it
     * ends: false when another live JVM holds it, or when this JVM took it before. Where the claims folder cannot be
     * used at all, the claim is taken as granted (this JVM's own bookkeeping still keeps its ports apart).
     */
    public static boolean claim(String name) {
        FileChannel channel = null;
        try {
            Files.createDirectories(CLAIMS);
            channel = FileChannel.open(
                    CLAIMS.resolve(name + ".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = tryLock(channel);
            if (lock == null) {
                channel.close();
                return false;
            }
            claims.add(channel);
            return true;
        } catch (IOException e) {
            closeQuietly(channel);
            return true;
        }
    }

    /** The lock, or null when another JVM holds it or this one does already (a claim is taken once per JVM). */
    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException heldHere) {
            return null;
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel == null) return;
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing was claimed through it
        }
    }

    /** Whether nothing listens on {@code port} of 127.0.0.1 right now. */
    public static boolean isFree(int port) {
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
