package dev.agora.perf.load;

/**
 * One timed call: which operation, which client, when it started (nanoseconds since the load began) and
 * how long it took, and its HTTP status (0: no answer).
 */
public record Sample(String operation, int client, long startNanos, long latencyNanos, int status) {

    public boolean ok() {
        return status >= 200 && status < 300;
    }
}
