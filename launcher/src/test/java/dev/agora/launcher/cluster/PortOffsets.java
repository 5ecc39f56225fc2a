package dev.agora.launcher.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Picks a port offset whose every port is free, so a test cluster neither collides with a developer's cluster nor
 * with other processes on this machine. Offsets stay below the kernel's ephemeral range (32768 and up).
 */
final class PortOffsets {

    private static final List<Integer> CANDIDATES = List.of(17_000, 16_000, 15_000, 14_000, 13_000, 18_000, 19_000);

    private PortOffsets() {}

    static ClusterSpec withFreeOffset(ClusterSpec spec, int preferred) {
        return IntStream.concat(IntStream.of(preferred), CANDIDATES.stream().mapToInt(Integer::intValue))
                .mapToObj(spec::withPortOffset)
                .filter(PortOffsets::allFree)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("No free port offset among " + CANDIDATES));
    }

    private static boolean allFree(ClusterSpec spec) {
        IntStream ports = IntStream.concat(
                IntStream.of(spec.exchangeTcpPort(1), spec.exchangeTcpPort(2), spec.controlPort()),
                IntStream.of(8080, 8180, 8280, 8380)
                        .flatMap(base -> IntStream.range(base, base + 4))
                        .map(port -> port + spec.portOffset()));
        return ports.allMatch(PortOffsets::isFree);
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
