package dev.agora.local.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FreePortsTest {

    @Test
    void portsComeFromOutsideTheKernelsEphemeralRangeAndAreNeverHandedOutTwice() throws Exception {
        int[] range = FreePorts.usableRange();
        Set<Integer> ports = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            int port = FreePorts.next();
            assertThat(ports.add(port)).as("port %d handed out twice", port).isTrue();
            if (range != null) assertThat(port).isBetween(range[0], range[1]);
            // and it is free: a child can bind it
            try (ServerSocket bound = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                assertThat(bound.getLocalPort()).isEqualTo(port);
            }
        }
    }

    @Test
    void anotherJvmIsNeverHandedAPortThisOneHandedOut() throws Exception {
        if (FreePorts.usableRange() == null) return;
        // Enough ports on both sides that, drawn at random from a range of a few thousand without claims, some would
        // be drawn twice.
        Set<Integer> mine = new HashSet<>();
        for (int i = 0; i < 300; i++) mine.add(FreePorts.next());
        Process other = new ProcessBuilder(
                        ProcessHandle.current().info().command().orElse("java"),
                        "-cp",
                        System.getProperty("java.class.path"),
                        PortsOfAnotherJvm.class.getName(),
                        "300")
                .redirectErrorStream(true)
                .start();
        String output;
        try (var reading = other.getInputStream()) {
            output = new String(reading.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        assertThat(other.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(other.exitValue()).as(output).isZero();
        Set<Integer> theirs = new HashSet<>();
        for (String line : output.strip().split("\\s+")) theirs.add(Integer.parseInt(line));
        assertThat(theirs).as("ports the other JVM got").hasSize(300).doesNotContainAnyElementsOf(mine);
    }

    /** Another JVM's ports: prints as many as its argument asks for, one a line. */
    static final class PortsOfAnotherJvm {
        public static void main(String[] args) {
            for (int i = 0; i < Integer.parseInt(args[0]); i++) System.out.println(FreePorts.next());
        }
    }

    @Test
    void aPortSomeoneListensOnIsNotHandedOut() throws Exception {
        int[] range = FreePorts.usableRange();
        if (range == null) return;
        // Hold most of a small window of the range, as busy neighbours would; what comes back is never one of them.
        Set<Integer> held = new HashSet<>();
        java.util.List<ServerSocket> sockets = new java.util.ArrayList<>();
        try {
            for (int port = range[0]; port < range[0] + 50; port++) {
                try {
                    sockets.add(new ServerSocket(port, 1, InetAddress.getLoopbackAddress()));
                    held.add(port);
                } catch (java.io.IOException alreadyTaken) {
                    held.add(port);
                }
            }
            for (int i = 0; i < 100; i++) assertThat(held).doesNotContain(FreePorts.next());
        } finally {
            for (ServerSocket socket : sockets) socket.close();
        }
    }
}
