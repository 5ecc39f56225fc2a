package dev.agora.frontend.timing;

import java.util.function.Supplier;

/**
 * The {@code Server-Timing} entries of the request being handled on this thread: time spent in each tier
 * and whether the cache hit. Calls outside a request (benchmarks, background work) record nothing.
 */
public final class ServerTiming {

    private static final ThreadLocal<ServerTiming> CURRENT = new ThreadLocal<>();

    private final long startedNanos = System.nanoTime();
    private final StringBuilder entries = new StringBuilder(64);

    ServerTiming() {}

    static ServerTiming begin() {
        ServerTiming timing = new ServerTiming();
        CURRENT.set(timing);
        return timing;
    }

    static void end() {
        CURRENT.remove();
    }

    /** Runs a call to {@code tier} and records how long it took (failed calls too). */
    public static <T> T measure(String tier, Supplier<T> call) {
        ServerTiming timing = CURRENT.get();
        if (timing == null) return call.get();
        long started = System.nanoTime();
        try {
            return call.get();
        } finally {
            timing.duration(tier, System.nanoTime() - started);
        }
    }

    /** Adds a described entry, e.g. {@code cache;desc=hit}. */
    public static void describe(String name, String description) {
        ServerTiming timing = CURRENT.get();
        if (timing == null) return;
        synchronized (timing) {
            timing.separator().append(name).append(";desc=").append(description);
        }
    }

    /** The header value, closed by the total time so far. */
    synchronized String header() {
        StringBuilder header = new StringBuilder(entries);
        if (!header.isEmpty()) header.append(", ");
        appendDuration(header.append("total"), System.nanoTime() - startedNanos);
        return header.toString();
    }

    private synchronized void duration(String name, long nanos) {
        appendDuration(separator().append(name), nanos);
    }

    private StringBuilder separator() {
        return entries.isEmpty() ? entries : entries.append(", ");
    }

    /** Milliseconds with three decimals, without going through floating point. */
    private static void appendDuration(StringBuilder out, long nanos) {
        long micros = Math.max(0, nanos / 1_000);
        long fraction = micros % 1_000;
        out.append(";dur=").append(micros / 1_000).append('.');
        if (fraction < 100) out.append('0');
        if (fraction < 10) out.append('0');
        out.append(fraction);
    }
}
