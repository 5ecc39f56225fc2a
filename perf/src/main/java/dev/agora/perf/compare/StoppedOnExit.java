package dev.agora.perf.compare;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What a command started (clusters, their drivers), stopped once: when the command ends, or by a shutdown hook when
 * Ctrl-C or SIGTERM ends the JVM first, so no cluster outlives its command. Closed front to back: a driver added at
 * the front stops before the cluster it drives.
 */
final class StoppedOnExit implements AutoCloseable {

    private final List<AutoCloseable> started = new CopyOnWriteArrayList<>();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final Thread hook;

    StoppedOnExit(String threadName) {
        hook = new Thread(this::stopAll, threadName);
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Stopped after what was added before it. */
    <T extends AutoCloseable> T add(T closeable) {
        started.add(closeable);
        return closeable;
    }

    /** Stopped before everything added so far. */
    <T extends AutoCloseable> T addFirst(T closeable) {
        started.addFirst(closeable);
        return closeable;
    }

    @Override
    public void close() {
        stopAll();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or ran: it stopped everything
        }
    }

    private void stopAll() {
        if (!stopped.compareAndSet(false, true)) return;
        for (AutoCloseable closeable : started) {
            try {
                closeable.close();
            } catch (Exception e) {
                System.err.println("Stopping " + closeable + " failed: " + e);
            }
        }
    }
}
