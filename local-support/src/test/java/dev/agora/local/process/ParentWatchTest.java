package dev.agora.local.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.local.postgres.EmbeddedPostgresServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParentWatchTest {

    @Test
    void watchdogSignalsItsTargetWhenTheOwnerIsKilled() throws Exception {
        Process owner = new ProcessBuilder("sleep", "60").start();
        Process target = new ProcessBuilder("sleep", "60").start();
        ParentWatch.signalWhenGone(owner.pid(), target.pid(), "TERM");
        Thread.sleep(1200);
        assertThat(target.isAlive()).as("owner still running").isTrue();

        owner.destroyForcibly();

        assertThat(target.waitFor(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void embeddedPostgresStopsWhenTheJvmThatStartedItIsKilled(@TempDir Path dataDirectory) throws Exception {
        Process launcher = new ProcessBuilder(
                        ProcessHandle.current().info().command().orElse("java"),
                        "-cp",
                        System.getProperty("java.class.path"),
                        PostgresLauncher.class.getName(),
                        dataDirectory.toString())
                .redirectErrorStream(true)
                .start();
        try {
            var output = new BufferedReader(new InputStreamReader(launcher.getInputStream(), StandardCharsets.UTF_8));
            int port = awaitPort(output);
            assertThat(accepts(port)).isTrue();

            launcher.destroyForcibly(); // SIGKILL: no shutdown hook runs
            launcher.waitFor(10, TimeUnit.SECONDS);

            long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
            while (accepts(port) && System.nanoTime() < deadline) Thread.sleep(100);
            assertThat(accepts(port))
                    .as("PostgreSQL still listening on %d", port)
                    .isFalse();
        } finally {
            launcher.destroyForcibly();
        }
    }

    private static int awaitPort(BufferedReader output) throws Exception {
        String line;
        while ((line = output.readLine()) != null) {
            if (line.startsWith("port=")) return Integer.parseInt(line.substring(5));
        }
        throw new AssertionError("the launcher ended before PostgreSQL was up");
    }

    private static boolean accepts(int port) throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (ConnectException refused) {
            return false;
        }
    }

    /** Starts an embedded PostgreSQL, says on which port, and waits to be killed. */
    static final class PostgresLauncher {
        public static void main(String[] args) throws Exception {
            var server = EmbeddedPostgresServer.start(Path.of(args[0]).resolve("pg"), 0);
            System.out.println("port=" + server.port());
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE);
        }
    }
}
