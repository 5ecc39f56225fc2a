package dev.agora.common.timing;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The {@code Server-Timing} entries of the request being handled on this thread: time spent in each tier, in the
 * database, and whether the cache hit. A tier's own entries come back with its answer and are passed on under its name,
 * so a buy through the frontend names {@code order}, {@code order.db}, {@code order.catalog}, {@code order.catalog.db}
 * and each tier's {@code total}. Calls outside a request (benchmarks, background work) record nothing.
 */
public final class ServerTiming {

    public static final String HEADER = "Server-Timing";

    /** The entry of a service's own database statements. */
    public static final String DB = "db";

    private static final ThreadLocal<ServerTiming> CURRENT = new ThreadLocal<>();

    /** {@code name;dur=1.234} or {@code name;desc=hit}, as this class writes them (and other tiers do). */
    private static final Pattern ENTRY =
            Pattern.compile("\\s*([A-Za-z0-9._-]{1,64})\\s*;\\s*(dur|desc)=\"?([A-Za-z0-9._-]{1,32})\"?\\s*");

    private static final Pattern MILLIS = Pattern.compile("\\d{1,9}(\\.\\d{1,6})?");
    private static final int MAX_ENTRIES = 32;

    private final long startedNanos = System.nanoTime();
    /** Durations in nanoseconds (summed when a name repeats, e.g. several statements) or descriptions. */
    private final Map<String, Object> entries = new LinkedHashMap<>();
    /** The tier {@link #call} is calling, under which {@link #relayingInterceptor()} passes answers' entries on. */
    private String calling;

    private ServerTiming() {}

    static ServerTiming begin() {
        ServerTiming timing = new ServerTiming();
        CURRENT.set(timing);
        return timing;
    }

    static void end() {
        CURRENT.remove();
    }

    /** Runs {@code call} and adds how long it took (failed calls too) to the entry {@code name}. */
    public static <T> T measure(String name, Supplier<T> call) {
        ServerTiming timing = CURRENT.get();
        if (timing == null) return call.get();
        long started = System.nanoTime();
        try {
            return call.get();
        } finally {
            timing.add(name, System.nanoTime() - started);
        }
    }

    /** Adds a described entry, e.g. {@code cache;desc=hit}. */
    public static void describe(String name, String description) {
        ServerTiming timing = CURRENT.get();
        if (timing != null) timing.put(name, description);
    }

    /**
     * Runs {@code call} (a call to another tier), adds how long it took to the entry {@code tier}, and passes on the
     * entries of every answer received during it (a 4xx/5xx too) each under {@code tier.}, as far as the answers came
     * through a client with {@link #relayingInterceptor()}: every attempt runs on the caller's thread.
     */
    public static <T> T call(String tier, Supplier<T> call) {
        ServerTiming timing = CURRENT.get();
        if (timing == null) return call.get();
        String outer = timing.calling;
        timing.calling = tier;
        try {
            return measure(tier, call);
        } finally {
            timing.calling = outer;
        }
    }

    /**
     * Passes on the {@code Server-Timing} entries of each answer that arrives inside {@link #call} on the same thread;
     * calls made outside one (health probes, background work) pass nothing on.
     */
    public static ClientHttpRequestInterceptor relayingInterceptor() {
        return (request, body, execution) -> {
            var response = execution.execute(request, body);
            ServerTiming timing = CURRENT.get();
            if (timing != null && timing.calling != null)
                timing.relay(timing.calling, response.getHeaders().getFirst(HEADER));
            return response;
        };
    }

    /** Adds the entries of a tier's {@code Server-Timing} header, each under {@code tier.}. */
    void relay(String tier, String header) {
        if (header == null) return;
        int relayed = 0;
        for (String entry : header.split(",")) {
            var parsed = ENTRY.matcher(entry);
            if (!parsed.matches()) continue;
            if (++relayed > MAX_ENTRIES) break;
            String name = tier + "." + parsed.group(1);
            String value = parsed.group(3);
            if (parsed.group(2).equals("desc")) {
                put(name, value);
            } else {
                long nanos = nanosOf(value);
                if (nanos >= 0) add(name, nanos);
            }
        }
    }

    /** Milliseconds with up to six decimals as nanoseconds, exactly; -1 when not a duration. */
    static long nanosOf(String millis) {
        return MILLIS.matcher(millis).matches()
                ? new BigDecimal(millis).movePointRight(6).longValueExact()
                : -1;
    }

    private synchronized void add(String name, long nanos) {
        entries.merge(name, nanos, (was, more) -> was instanceof Long sum ? sum + (Long) more : more);
    }

    private synchronized void put(String name, String description) {
        entries.put(name, description);
    }

    /** The header value, closed by the total time so far. */
    synchronized String header() {
        StringBuilder header = new StringBuilder(32 * (entries.size() + 1));
        for (Map.Entry<String, Object> entry : entries.entrySet()) {
            header.append(entry.getKey());
            if (entry.getValue() instanceof Long nanos) appendDuration(header, nanos);
            else header.append(";desc=").append(entry.getValue());
            header.append(", ");
        }
        appendDuration(header.append("total"), System.nanoTime() - startedNanos);
        return header.toString();
    }

    private static void appendDuration(StringBuilder out, long nanos) {
        out.append(";dur=")
                .append(BigDecimal.valueOf(Math.max(0, nanos / 1_000), 3).toPlainString());
    }

    /**
     * Puts a {@code Server-Timing} header on every response. The header has to go out with the status line, so it is
     * added at the last moment before the body starts (or when the request ends without a body).
     */
    public static final class Filter extends OncePerRequestFilter {

        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            TimedResponse timed = new TimedResponse(response, begin());
            try {
                chain.doFilter(request, timed);
            } finally {
                timed.addHeader();
                end();
            }
        }

        private static final class TimedResponse extends HttpServletResponseWrapper {

            private final ServerTiming timing;
            // Guarded by this: after startAsync, the request thread and the async thread both reach it.
            private boolean added;

            TimedResponse(HttpServletResponse response, ServerTiming timing) {
                super(response);
                this.timing = timing;
            }

            synchronized void addHeader() {
                if (added || isCommitted()) return;
                added = true;
                setHeader(HEADER, timing.header());
            }

            @Override
            public ServletOutputStream getOutputStream() throws IOException {
                addHeader();
                return super.getOutputStream();
            }

            @Override
            public PrintWriter getWriter() throws IOException {
                addHeader();
                return super.getWriter();
            }

            @Override
            public void flushBuffer() throws IOException {
                addHeader();
                super.flushBuffer();
            }

            @Override
            public void sendError(int status, String message) throws IOException {
                addHeader();
                super.sendError(status, message);
            }

            @Override
            public void sendError(int status) throws IOException {
                addHeader();
                super.sendError(status);
            }
        }
    }
}
