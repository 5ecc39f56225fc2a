package dev.agora.local.cluster;

import dev.agora.local.postgres.SharedPostgres;
import dev.agora.local.process.ServiceJars;
import dev.agora.local.process.ServiceProcess;
import dev.agora.local.process.TestAotCaches;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The service processes a test (or a test's cluster) starts from the reactor's exec jars, and stops: each in the
 * {@link LocalProfile local profile}, on a free port of 127.0.0.1, logging to a file of its own in one folder.
 * Closing kills every one of them (thawed first, in case a test froze it).
 *
 * <pre>{@code
 * LocalProcesses processes = new LocalProcesses(Path.of("target", "it-logs"));
 * ServiceProcess order = processes.service("order-service", "order-0", env -> env
 *         .env(LocalProfile.database(postgres, "orders_it"))
 *         .env("CATALOG_INSTANCES", catalogs));
 * order.startAndAwaitReady(Duration.ofMinutes(3));
 * ...
 * processes.close();
 * }</pre>
 */
public final class LocalProcesses implements AutoCloseable {

    private final Path logFolder;
    private final Function<String, Path> jars;
    private final List<ServiceProcess> processes = new ArrayList<>();

    /** @param logFolder where {@code <name>.log} of each process goes */
    public LocalProcesses(Path logFolder) {
        this(logFolder, ServiceJars::locate);
    }

    /** With the runnable jar of a module found by {@code jars} instead of in the reactor (a test's own jar). */
    public LocalProcesses(Path logFolder, Function<String, Path> jars) {
        this.logFolder = logFolder;
        this.jars = jars;
    }

    /**
     * A process of {@code module}'s exec jar on a free port (not started yet), set up further by {@code settings}
     * (environment, JVM options), and stopped by {@link #close()}.
     */
    public ServiceProcess service(String module, String name, Consumer<ServiceProcess.Builder> settings) {
        return service(module, name, FreePorts.next(), settings);
    }

    /**
     * Like {@link #service(String, String, Consumer)}, on a port chosen by the caller. Callers on several threads train
     * their jars' AOT caches side by side ({@link TestAotCaches}).
     */
    public ServiceProcess service(String module, String name, int port, Consumer<ServiceProcess.Builder> settings) {
        ServiceProcess.Builder builder = ServiceProcess.builder(name, jars.apply(module), port)
                .env(LocalProfile.environment())
                .logFile(logFolder.resolve(name + ".log"));
        settings.accept(builder);
        if (TestAotCaches.enabled()) {
            TestAotCaches.use(builder, database -> LocalProfile.database(SharedPostgres.get(), database));
        }
        ServiceProcess process = builder.build();
        synchronized (this) {
            processes.add(process);
        }
        return process;
    }

    /** Stops every process when the JVM exits (for processes shared by a whole test run). */
    public LocalProcesses closeOnExit(String threadName) {
        Runtime.getRuntime().addShutdownHook(new Thread(this::close, threadName));
        return this;
    }

    /** Starts all, then waits until each is ready: they start up side by side. */
    public static void startAndAwaitReady(List<ServiceProcess> processes, Duration timeout) {
        processes.forEach(ServiceProcess::start);
        processes.forEach(process -> process.awaitReady(timeout));
    }

    /** The base URLs, comma-separated, as a service's {@code *_INSTANCES} variable lists its peers. */
    public static String urls(List<ServiceProcess> processes) {
        return processes.stream().map(ServiceProcess::baseUrl).collect(Collectors.joining(","));
    }

    /** Kills (SIGKILL) every process started so far, thawing a frozen one first. */
    @Override
    public synchronized void close() {
        for (ServiceProcess process : processes) {
            try {
                process.thaw();
                process.kill();
            } catch (RuntimeException e) {
                // Keep stopping the rest.
            }
        }
    }
}
