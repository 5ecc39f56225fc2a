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

    private final EmbeddedPostgresServer postgres;
    private final List<ServiceProcess> processes = new CopyOnWriteArrayList<>();
    private final AtomicBoolean done = new AtomicBoolean();

    Shutdown(EmbeddedPostgresServer postgres) {
        this.postgres = postgres;
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
        try {
            postgres.close();
        } catch (RuntimeException e) {
            log.warn("Stopping PostgreSQL failed", e);
        }
    }
}
