package dev.agora.catalog.files;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * An S3-compatible server for tests, as a process of its own on a free loopback port: moto in server mode
 * ({@code pip install 'moto[server]'}). Stopped on close, and with the test JVM.
 */
final class S3TestServer implements AutoCloseable {

    private final Process process;
    private final int port;

    private S3TestServer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    static S3TestServer start() {
        List<String> command = command();
        assumeTrue(
                command != null,
                "No S3-compatible test server here: neither moto_server nor python3's moto module "
                        + "(install it with: python3 -m pip install 'moto[server]'; .ci/run does)");
        int port = freePort();
        try {
            Path log = Files.createTempFile("moto-", ".log");
            List<String> full = new java.util.ArrayList<>(command);
            full.addAll(List.of("-H", "127.0.0.1", "-p", Integer.toString(port)));
            Process process = new ProcessBuilder(full)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            S3TestServer server = new S3TestServer(process, port);
            Runtime.getRuntime().addShutdownHook(new Thread(server::close));
            server.awaitListening(Duration.ofSeconds(60), log);
            return server;
        } catch (IOException e) {
            throw new IllegalStateException("Could not start moto_server", e);
        }
    }

    private void awaitListening(Duration timeout, Path log) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) break;
            try (Socket ignored = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException notYet) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
        }
        close();
        String output;
        try {
            output = Files.readString(log);
        } catch (IOException e) {
            output = "";
        }
        throw new IllegalStateException("moto_server did not start listening on " + port + ": " + output);
    }

    /** moto_server on the PATH, else moto's module run by python3 (a fresh pip install may not be on the PATH yet). */
    private static List<String> command() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "moto_server");
            if (Files.isExecutable(candidate)) return List.of(candidate.toString());
        }
        try {
            Process probe = new ProcessBuilder("python3", "-c", "import moto.server")
                    .redirectErrorStream(true)
                    .start();
            probe.getInputStream().readAllBytes();
            if (probe.waitFor() == 0) return List.of("python3", "-m", "moto.server");
        } catch (IOException notThere) {
            // No python3 either.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return null;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) process.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
