package dev.agora.common.timing;

import dev.agora.common.client.CallSafety;
import dev.agora.common.client.Replica;
import dev.agora.common.client.ReplicaClients;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.http.HttpHeaders;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.web.client.RestClientResponseException;

/**
 * The {@code Server-Timing} entries of the request being handled on this thread: time spent in each tier,
 * in the database, and whether the cache hit. A tier's own entries come back with its answer and are passed
 * on under its name, so a buy through the frontend names {@code order}, {@code order.db},
 * {@code order.catalog}, {@code order.catalog.db} and each tier's {@code total}. Calls outside a request
 * (benchmarks, background work) record nothing.
 */
public final class ServerTiming {

    public static final String HEADER = "Server-Timing";

    /** The entry of a service's own database statements. */
    public static final String DB = "db";

    private static final ThreadLocal<ServerTiming> CURRENT = new ThreadLocal<>();
    /**
     * Set while an attempt made through {@link #call} runs on this thread: where {@link #answersInterceptor()}
     * puts the header of the attempt's response.
     */
    private static final ThreadLocal<String[]> ANSWERED = new ThreadLocal<>();

    /** {@code name;dur=1.234} or {@code name;desc=hit}, as this class writes them (and other tiers do). */
    private static final Pattern ENTRY =
            Pattern.compile("\\s*([A-Za-z0-9._-]{1,64})\\s*;\\s*(dur|desc)=\"?([A-Za-z0-9._-]{1,32})\"?\\s*");

    private static final int MAX_ENTRIES = 32;

    private final long startedNanos = System.nanoTime();
    /** Durations in nanoseconds (summed when a name repeats, e.g. several statements) or descriptions. */
    private final Map<String, Object> entries = new LinkedHashMap<>();

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
     * Calls {@code serviceId} through {@code clients}, adds the call's time to the entry {@code tier} and passes
     * on the entries of the answer that won, each under {@code tier.}, also when that answer is a 4xx/5xx
     * ({@link RestClientResponseException}, rethrown). The attempts must run on a client that has
     * {@link #answersInterceptor()}.
     */
    public static <T> T call(
            String tier, ReplicaClients clients, String serviceId, CallSafety safety, Replica.Attempt<T> attempt) {
        return measure(tier, () -> {
            try {
                return relay(tier, clients.call(serviceId, safety, answered(attempt)));
            } catch (RestClientResponseException answeredWithError) {
                relay(tier, answeredWithError.getResponseHeaders());
                throw answeredWithError;
            }
        });
    }

    /** Keeps the {@code Server-Timing} header of a response to an attempt made through {@link #call}. */
    public static ClientHttpRequestInterceptor answersInterceptor() {
        return (request, body, execution) -> {
            var response = execution.execute(request, body);
            String[] slot = ANSWERED.get();
            if (slot != null) slot[0] = response.getHeaders().getFirst(HEADER);
            return response;
        };
    }

    /** An answer of a tier, with the {@code Server-Timing} header it came with (null when it had none). */
    record Answered<T>(T value, String serverTiming) {}

    /**
     * The attempt, answering with the header its response carried. The header is kept on the attempt's own
     * thread (hedges run on pooled threads), so only the answer that wins is passed on; calls
     * made outside an attempt (health probes) leave nothing behind.
     */
    static <T> Replica.Attempt<Answered<T>> answered(Replica.Attempt<T> attempt) {
        return replica -> {
            String[] slot = new String[1];
            ANSWERED.set(slot);
            try {
                T value = attempt.call(replica);
                return new Answered<>(value, slot[0]);
            } finally {
                ANSWERED.remove();
            }
        };
    }

    /** Passes on the tier's entries, each under {@code tier.}; returns the answer's value. */
    static <T> T relay(String tier, Answered<T> answer) {
        relay(tier, answer.serverTiming());
        return answer.value();
    }

    /** Passes on the entries of a tier's error answer. */
    static void relay(String tier, HttpHeaders answerHeaders) {
        if (answerHeaders != null) relay(tier, answerHeaders.getFirst(HEADER));
    }

    private static void relay(String tier, String header) {
        ServerTiming timing = CURRENT.get();
        if (timing == null || header == null) return;
        int relayed = 0;
        for (String entry : header.split(",")) {
            Matcher parsed = ENTRY.matcher(entry);
            if (!parsed.matches()) continue;
            if (++relayed > MAX_ENTRIES) break;
            String name = tier + "." + parsed.group(1);
            String value = parsed.group(3);
            if (parsed.group(2).equals("desc")) {
                timing.put(name, value);
            } else {
                long nanos = nanosOf(value);
                if (nanos >= 0) timing.add(name, nanos);
            }
        }
    }

    /** Milliseconds with up to six decimals as nanoseconds, without floating point; -1 when not a duration. */
    static long nanosOf(String millis) {
        int dot = millis.indexOf('.');
        String whole = dot < 0 ? millis : millis.substring(0, dot);
        String fraction = dot < 0 ? "" : millis.substring(dot + 1);
        if (whole.isEmpty() || whole.length() > 9 || fraction.length() > 6) return -1;
        if (!(whole + fraction).chars().allMatch(c -> c >= '0' && c <= '9')) return -1;
        return Long.parseLong(whole) * 1_000_000 + Long.parseLong((fraction + "000000").substring(0, 6));
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
            if (entry.getValue() instanceof Long nanos) {
                appendDuration(header, nanos);
            } else {
                header.append(";desc=").append(entry.getValue());
            }
            header.append(", ");
        }
        appendDuration(header.append("total"), System.nanoTime() - startedNanos);
        return header.toString();
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
