package dev.agora.launcher.toxiproxy;

import dev.agora.local.cluster.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Toxiproxy's server as a child process on 127.0.0.1 (API on a free port), for tests and experiments that cut,
 * slow or break the links of a cluster. The binary comes from {@code .ci/install-toxiproxy.sh} (Go's {@code go
 * install}; it is named {@code server}); {@link #locate()} finds it.
 */
public final class ToxiproxyServer implements AutoCloseable {

    /** System property naming the binary; the environment variable {@code TOXIPROXY_SERVER} does the same. */
    public static final String BINARY_PROPERTY = "agora.toxiproxy.server";

    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

    private final Process process;
    private final Toxiproxy api;
    private final Thread shutdownHook;

    private ToxiproxyServer(Process process, Toxiproxy api) {
        this.process = process;
        this.api = api;
        this.shutdownHook = new Thread(process::destroyForcibly, "toxiproxy-stop");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Where the server binary is: {@code -Dagora.toxiproxy.server}, {@code $TOXIPROXY_SERVER}, {@code
     * $GOBIN/server}, {@code $GOPATH/bin/server}, {@code ~/go/bin/server} (where {@code go install} puts it), or
     * {@code toxiproxy-server} on the {@code PATH} (a packaged install).
     */
    public static Optional<Path> locate() {
        List<Path> candidates = new ArrayList<>();
        String property = System.getProperty(BINARY_PROPERTY);
        if (property != null && !property.isBlank()) candidates.add(Path.of(property));
        String variable = System.getenv("TOXIPROXY_SERVER");
        if (variable != null && !variable.isBlank()) candidates.add(Path.of(variable));
        String gobin = System.getenv("GOBIN");
        if (gobin != null && !gobin.isBlank()) candidates.add(Path.of(gobin, "server"));
        String gopath = System.getenv("GOPATH");
        if (gopath != null && !gopath.isBlank()) candidates.add(Path.of(gopath, "bin", "server"));
        candidates.add(Path.of(System.getProperty("user.home"), "go", "bin", "server"));
        String path = System.getenv("PATH");
        if (path != null) {
            for (String directory : path.split(java.io.File.pathSeparator)) {
                if (!directory.isBlank()) candidates.add(Path.of(directory, "toxiproxy-server"));
            }
        }
        return candidates.stream().filter(Files::isExecutable).findFirst();
    }

    /** Starts the located server, or says how to install it. */
    public static ToxiproxyServer start(Path logFile) {
        Path binary = locate().orElseThrow(() -> new IllegalStateException("Toxiproxy's server is not installed: run"
                + " .ci/install-toxiproxy.sh, or name the binary with -D" + BINARY_PROPERTY));
        return start(binary, logFile);
    }

    /** Starts {@code binary} listening on a free port of 127.0.0.1 and waits until its API answers. */
    public static ToxiproxyServer start(Path binary, Path logFile) {
        int port = FreePorts.next();
        Process process;
        try {
            Files.createDirectories(logFile.toAbsolutePath().getParent());
            process = new ProcessBuilder(binary.toString(), "-host", "127.0.0.1", "-port", Integer.toString(port))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start " + binary, e);
        }
        Toxiproxy api = new Toxiproxy(URI.create("http://127.0.0.1:" + port));
        ToxiproxyServer server = new ToxiproxyServer(process, api);
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        RuntimeException last = null;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                server.close();
                throw new IllegalStateException("Toxiproxy exited at start (port " + port + "?); log: " + logFile);
            }
            try {
                api.version();
                return server;
            } catch (Toxiproxy.ToxiproxyException notYet) {
                last = notYet;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                server.close();
                throw new IllegalStateException("Interrupted while Toxiproxy started", e);
            }
        }
        server.close();
        throw new IllegalStateException("Toxiproxy did not answer within " + START_TIMEOUT + "; log: " + logFile, last);
    }

    public Toxiproxy api() {
        return api;
    }

    public long pid() {
        return process.pid();
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // The hook runs anyway.
        }
    }
}
