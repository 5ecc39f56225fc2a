package dev.agora.common.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;

/**
 * Lets a process end with the process that launched it. A launcher that is killed with SIGKILL runs no shutdown
 * hook, and the JVMs and the PostgreSQL it started would otherwise live on, holding their ports, until someone
 * finds and kills them by hand.
 */
public final class ParentWatch {

    /** Set by {@link ServiceProcess} in a child's environment; Spring Boot reads it as {@code agora.parent-pid}. */
    public static final String PARENT_PID_VARIABLE = "AGORA_PARENT_PID";

    private ParentWatch() {}

    /**
     * Runs {@code action} once process {@code pid} has ended (at once when it is not running). The JDK polls a
     * process that is not our child, so this notices within a fraction of a second, not at once.
     */
    public static CompletableFuture<Void> whenGone(long pid, Runnable action) {
        CompletableFuture<?> gone = ProcessHandle.of(pid)
                .<CompletableFuture<?>>map(ProcessHandle::onExit)
                .orElseGet(() -> CompletableFuture.completedFuture(null));
        return gone.thenRun(action);
    }

    /**
     * Starts a tiny {@code sh} watchdog that sends {@code signal} to {@code target} once {@code owner} has ended,
     * for a child that cannot watch its owner itself (PostgreSQL). Destroy the returned process when the target
     * is stopped the ordinary way, so it never signals a recycled pid.
     */
    public static Process signalWhenGone(long owner, long target, String signal) {
        String script = "while kill -0 \"$0\" 2>/dev/null; do sleep 0.5; done; kill -s \"$2\" \"$1\" 2>/dev/null";
        try {
            return new ProcessBuilder("sh", "-c", script, Long.toString(owner), Long.toString(target), signal)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start the watchdog of process " + target, e);
        }
    }
}
