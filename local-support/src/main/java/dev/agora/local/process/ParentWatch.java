package dev.agora.local.process;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Lets a process end with the process that launched it. A launcher that is killed with SIGKILL runs no shutdown
 * hook, and the JVMs and the PostgreSQL it started would otherwise live on, holding their ports, until someone
 * finds and kills them by hand. A service reads {@link #PARENT_PID_VARIABLE} itself (common's
 * {@code AgoraCommonAutoConfiguration}); PostgreSQL gets a watchdog.
 */
public final class ParentWatch {

    /** Set by {@link ServiceProcess} in a child's environment; Spring Boot reads it as {@code agora.parent-pid}. */
    public static final String PARENT_PID_VARIABLE = "AGORA_PARENT_PID";

    private ParentWatch() {}

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
