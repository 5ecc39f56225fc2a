package dev.agora.perf.load;

import dev.agora.perf.stats.LatencyHistogram;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Times the calls of one client thread. Each client owns its recorder, so recording takes no locks;
 * {@link LoadResult} merges them when the load is over.
 */
public final class Recorder {

    private final int client;
    private final long originNanos;
    private final Map<String, LatencyHistogram> latencies = new LinkedHashMap<>();
    private final Map<String, Long> failures = new LinkedHashMap<>();
    private final List<Sample> samples = new ArrayList<>();
    private final Map<String, List<String>> failureExamples = new LinkedHashMap<>();

    /** Enough examples of what went wrong to diagnose it, without keeping every failed body. */
    static final int FAILURE_EXAMPLES_PER_OPERATION = 3;

    Recorder(int client, long originNanos) {
        this.client = client;
        this.originNanos = originNanos;
    }

    /** Runs the call, records its latency under the operation's name, and counts a non-2xx as a failure. */
    public HttpReply time(String operation, Supplier<HttpReply> call) {
        return time(operation, call, 200, 299);
    }

    /** Like {@link #time(String, Supplier)} but with the range of statuses the workload expects. */
    public HttpReply time(String operation, Supplier<HttpReply> call, int lowestExpected, int highestExpected) {
        long start = System.nanoTime();
        HttpReply reply = call.get();
        long latency = System.nanoTime() - start;
        boolean expected = reply.status() >= lowestExpected && reply.status() <= highestExpected;
        record(operation, start, latency, reply.status(), expected);
        if (!expected) {
            List<String> examples = failureExamples.computeIfAbsent(operation, name -> new ArrayList<>());
            if (examples.size() < FAILURE_EXAMPLES_PER_OPERATION) examples.add(describe(reply));
        }
        return reply;
    }

    /** Records a latency measured by the caller, e.g. a whole session of several calls. */
    public void record(String operation, long startNanos, long latencyNanos, int status, boolean expected) {
        latencies.computeIfAbsent(operation, name -> new LatencyHistogram()).recordNanos(latencyNanos);
        if (!expected) failures.merge(operation, 1L, Long::sum);
        samples.add(new Sample(operation, client, startNanos - originNanos, latencyNanos, status));
    }

    private static String describe(HttpReply reply) {
        if (reply.status() == 0) return "no answer: " + reply.failure();
        String body = reply.body().length() > 200 ? reply.body().substring(0, 200) + "..." : reply.body();
        return reply.status() + " " + body.replace('\n', ' ');
    }

    Map<String, List<String>> failureExamples() {
        return failureExamples;
    }

    Map<String, LatencyHistogram> latencies() {
        return latencies;
    }

    Map<String, Long> failures() {
        return failures;
    }

    List<Sample> samples() {
        return samples;
    }
}
