package dev.agora.launcher.cluster;

import java.io.PrintStream;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Shows a cluster start: on a terminal, one line per step redrawn in place (ANSI cursor movement) with the seconds
 * each unfinished step has taken so far; elsewhere (a pipe, a log file, CI) one plain line per change.
 *
 * <p>Hand-written rather than taken from a library: me.tongfei's progressbar (already used by perf) draws one bar
 * per task, not a table of states, and JLine's status line is a dependency of several megabytes for what here is
 * three escape sequences ({@code ESC[nA}, {@code ESC[2K}, {@code \r}).
 */
public final class ProgressView implements StartProgress, AutoCloseable {

    private static final long REDRAW_MILLIS = 250;

    private final PrintStream out;
    private final boolean ansi;
    private final long started = System.nanoTime();
    private final Map<String, Line> lines = new LinkedHashMap<>();
    private int drawn;
    private Thread ticker;

    private record Line(String state, boolean done, long since) {}

    public ProgressView(PrintStream out, boolean ansi) {
        this.out = out;
        this.ansi = ansi;
        if (ansi) {
            ticker = Thread.ofPlatform().daemon().name("progress").start(this::tick);
        }
    }

    /** A view for {@link System#out}, redrawing in place only when the JVM's console is an interactive terminal. */
    public static ProgressView forConsole() {
        return new ProgressView(System.out, isTerminal());
    }

    /**
     * Whether standard input and output are a terminal. {@code System.console()} says so on JDK 21; from JDK 22 it
     * may return a console for redirected streams too, and {@code Console.isTerminal()} (not in 21's API, so looked
     * up) tells. {@code TERM=dumb} (Emacs shells, some CI) has no cursor movement.
     */
    public static boolean isTerminal() {
        var console = System.console();
        if (console == null || "dumb".equals(System.getenv("TERM"))) return false;
        try {
            // Looked up on java.io.Console, not on the console's (internal, unexported) class, so it may be called.
            Method isTerminal = java.io.Console.class.getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(console);
        } catch (ReflectiveOperationException notOnThisJdk) {
            return true;
        }
    }

    @Override
    public synchronized void update(String step, String state, boolean done) {
        Line previous = lines.get(step);
        if (previous != null && previous.state.equals(state) && previous.done == done) return;
        long since = previous != null && previous.state.equals(state) ? previous.since : System.nanoTime();
        lines.put(step, new Line(state, done, since));
        if (ansi) {
            redraw();
        } else {
            out.printf("%6.1f s  %-14s %s%n", seconds(System.nanoTime() - started), step, state);
        }
    }

    /** Stops redrawing; the last picture stays on the screen. */
    @Override
    public synchronized void close() {
        if (ticker != null) {
            ticker.interrupt();
            ticker = null;
            redraw();
        }
    }

    private void tick() {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Thread.sleep(REDRAW_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            synchronized (this) {
                if (ticker == null) return;
                redraw();
            }
        }
    }

    private void redraw() {
        StringBuilder frame = new StringBuilder();
        if (drawn > 0) frame.append("\033[").append(drawn).append('A');
        long now = System.nanoTime();
        for (Map.Entry<String, Line> entry : lines.entrySet()) {
            Line line = entry.getValue();
            frame.append("\r\033[2K").append(String.format("  %-14s %s", entry.getKey(), line.state()));
            if (!line.done()) frame.append(String.format(" (%.0f s)", seconds(now - line.since())));
            frame.append('\n');
        }
        frame.append("\r\033[2K")
                .append(String.format("  %.0f s since the start", seconds(now - started)))
                .append('\n');
        drawn = lines.size() + 1;
        out.print(frame);
        out.flush();
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
