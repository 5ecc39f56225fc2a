package dev.agora.local.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One service instance running as its own OS process, so that it can really be killed ({@code kill -9}),
 * frozen ({@code SIGSTOP}), thawed and restarted. Used by the cluster launcher and by tests that prove
 * crash and failover behaviour against real processes.
 */
public final class ServiceProcess implements AutoCloseable {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();
    /** {@code "process":{"pid":1234,...}} in Spring Boot's /actuator/info. */
    private static final Pattern PID = Pattern.compile("\"pid\"\\s*:\\s*(\\d+)");

    private final String name;
    private final Path jar;
    private final int port;
    private final Map<String, String> environment;
    private final List<String> jvmOptions;
    private final Path logFile;
    private Process process;

    private ServiceProcess(Builder builder) {
        this.name = builder.name;
        this.jar = builder.jar;
        this.port = builder.port;
        this.environment = Map.copyOf(builder.environment);
        this.jvmOptions = List.copyOf(builder.jvmOptions);
        this.logFile = builder.logFile;
    }

    public static Builder builder(String name, Path jar, int port) {
        return new Builder(name, jar, port);
    }

    /** Starts the process (when it is not running) without waiting for it to be ready. */
    public synchronized ServiceProcess start() {
        if (isAlive()) return this;
        List<String> command = new ArrayList<>();
        command.add(ServiceJars.javaExecutable());
        command.addAll(jvmOptions);
        command.add("-jar");
        command.add(jar.toString());
        command.add("--server.port=" + port);
        command.add("--server.address=127.0.0.1");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment()
                .put(
                        ParentWatch.PARENT_PID_VARIABLE,
                        Long.toString(ProcessHandle.current().pid()));
        // The pid in /actuator/info, so that awaitReady can tell this process from another one answering on its port.
        builder.environment().put("MANAGEMENT_INFO_PROCESS_ENABLED", "true");
        builder.environment().putAll(environment);
        try {
            Files.createDirectories(logFile.toAbsolutePath().getParent());
            builder.redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start " + name, e);
        }
        return this;
    }

    /** Starts the process when needed and waits until its readiness probe says UP. */
    public ServiceProcess startAndAwaitReady(Duration timeout) {
        start();
        awaitReady(timeout);
        return this;
    }

    public void awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + "; log: " + logFile);
            }
            if (isReady()) {
                requireOwnPort();
                return;
            }
            sleep(100);
        }
        throw new IllegalStateException(name + " not ready after " + timeout + "; log: " + logFile);
    }

    /**
     * A readiness probe only says that something on the port is ready: when another process (a second cluster
     * started at the same moment) took the port first, this one fails to bind and exits a little later, while the
     * probe already got the other one's UP.
     */
    private void requireOwnPort() {
        Long answering = answeringPid();
        long own = process.pid();
        if (answering != null && answering == own) return;
        kill();
        throw new IllegalStateException(name + ": port " + port + " is answered by "
                + (answering == null
                        ? "a process that does not name its pid"
                        : "another process (pid " + answering + ")")
                + ", not by this instance (pid " + own + "); log: " + logFile);
    }

    private Long answeringPid() {
        return get("/actuator/info", Duration.ofSeconds(2))
                .filter(response -> response.statusCode() == 200)
                .map(response -> PID.matcher(response.body()))
                .filter(Matcher::find)
                .map(pid -> Long.valueOf(pid.group(1)))
                .orElse(null);
    }

    public boolean isReady() {
        return get("/readyz", Duration.ofMillis(500))
                .map(response -> response.statusCode() == 200)
                .orElse(false);
    }

    /** The instance's answer to a GET of {@code path}; empty when it gave none in time. */
    private Optional<HttpResponse<String>> get(String path, Duration timeout) {
        try {
            return Optional.of(HTTP.send(
                    HttpRequest.newBuilder(URI.create(baseUrl() + path))
                            .timeout(timeout)
                            .build(),
                    HttpResponse.BodyHandlers.ofString()));
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    public synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** SIGKILL: no shutdown hooks, no graceful anything, like a machine losing power. */
    public synchronized void kill() {
        if (process == null) return;
        process.destroyForcibly();
        waitFor(Duration.ofSeconds(10));
    }

    /** SIGTERM, then waits for a graceful shutdown (SIGKILL after the timeout). */
    public synchronized void stop(Duration timeout) {
        if (!isAlive()) return;
        thaw();
        process.destroy();
        if (!waitFor(timeout)) kill();
    }

    /** SIGSTOP: the process keeps its sockets open but answers nothing, like a hung machine. */
    public synchronized void freeze() {
        signal("STOP");
    }

    /** SIGCONT after {@link #freeze()}. */
    public synchronized void thaw() {
        signal("CONT");
    }

    public ServiceProcess restart(Duration readyTimeout) {
        kill();
        return startAndAwaitReady(readyTimeout);
    }

    public String name() {
        return name;
    }

    public int port() {
        return port;
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    public synchronized long pid() {
        return process == null ? -1 : process.pid();
    }

    public Path logFile() {
        return logFile;
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(15));
    }

    /**
     * Sends {@code signal} and returns once it has taken effect: {@code kill} has exited, and after STOP (CONT) the
     * kernel reports the process stopped (running again). On a loaded machine starting {@code kill} alone can take
     * seconds, and a caller that went on before the process stopped would see a "frozen" service answer.
     */
    private void signal(String signal) {
        if (!isAlive()) return;
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                    .inheritIO()
                    .start();
            if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + process.pid() + " did not succeed");
            }
            if (signal.equals("STOP") || signal.equals("CONT")) awaitStopped(signal.equals("STOP"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits until /proc says the process is (or is no longer) stopped; where there is no /proc, returns at once. */
    private void awaitStopped(boolean stopped) throws InterruptedException {
        Path stat = Path.of("/proc", Long.toString(process.pid()), "stat");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline && isAlive()) {
            String line;
            try {
                line = Files.readString(stat);
            } catch (IOException noProc) {
                return;
            }
            // The state follows the command name, which is in parentheses and may itself contain spaces.
            char state = line.charAt(line.lastIndexOf(')') + 2);
            if ((state == 'T') == stopped) return;
            Thread.sleep(5);
        }
    }

    private boolean waitFor(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static final class Builder {
        private final String name;
        private Path jar;
        private final int port;
        private final Map<String, String> environment = new LinkedHashMap<>();
        /**
         * C1 only and Serial GC, as tests' processes and clusters everywhere run (and as their AOT caches are trained,
         * {@link TestAotCaches}): a service is ready on about half the CPU, and no GC threads compete on two cores.
         */
        private final List<String> jvmOptions =
                new ArrayList<>(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss512k"));

        private Path logFile;

        private Builder(String name, Path jar, int port) {
            this.name = name;
            this.jar = jar;
            this.port = port;
            this.logFile = Path.of(System.getProperty("java.io.tmpdir"), "agora-logs", name + ".log");
        }

        /** Environment of the child; Spring Boot maps e.g. {@code AGORA_CACHE_ENABLED} to properties. */
        public Builder env(String key, String value) {
            environment.put(key, value);
            return this;
        }

        public Builder env(Map<String, String> values) {
            environment.putAll(values);
            return this;
        }

        /** Replaces the default JVM options (which favour fast start-up over peak speed). */
        public Builder jvmOptions(List<String> options) {
            jvmOptions.clear();
            jvmOptions.addAll(options);
            return this;
        }

        public Builder logFile(Path file) {
            this.logFile = file;
            return this;
        }

        /** Runs this jar instead (an extracted copy of the one given at first, say). */
        public Builder jar(Path runnableJar) {
            this.jar = runnableJar;
            return this;
        }

        public Path jar() {
            return jar;
        }

        public Map<String, String> environment() {
            return Map.copyOf(environment);
        }

        public List<String> jvmOptions() {
            return List.copyOf(jvmOptions);
        }

        public ServiceProcess build() {
            return new ServiceProcess(this);
        }
    }
}
