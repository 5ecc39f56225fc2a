package dev.agora.launcher.cluster;

import dev.agora.local.postgres.EmbeddedPostgresServer;
import dev.agora.local.process.ServiceProcess;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops everything a cluster started, once: on close, on a failed start, or from a JVM shutdown hook (Ctrl-C), so
 * no service process or PostgreSQL outlives the launcher.
 */
final class Shutdown implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(Shutdown.class);

    /** Null until started: on a restart the first instances start beside it. */
    private volatile EmbeddedPostgresServer postgres;

    private final List<ServiceProcess> processes = new CopyOnWriteArrayList<>();
    private final AtomicBoolean done = new AtomicBoolean();

    Shutdown() {}

    /** The cluster's PostgreSQL, once it runs; stopped at once when the cluster stopped while it started. */
    void postgres(EmbeddedPostgresServer started) {
        this.postgres = started;
        if (done.get()) closePostgres(started);
    }

    void add(ServiceProcess process) {
        processes.add(process);
    }

    /** Whether the cluster is stopping or stopped: nothing may start any more. */
    boolean isDone() {
        return done.get();
    }

    @Override
    public void run() {
        if (!done.compareAndSet(false, true)) return;
        Cluster.stopAll(processes);
        EmbeddedPostgresServer started = postgres;
        if (started != null) closePostgres(started);
    }

    private static void closePostgres(EmbeddedPostgresServer postgres) {
        try {
            postgres.close();
        } catch (RuntimeException e) {
            log.warn("Stopping PostgreSQL failed", e);
        }
    }
}
