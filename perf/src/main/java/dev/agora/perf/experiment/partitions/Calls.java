package dev.agora.perf.experiment.partitions;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Every attempt the clients made, as they saw it: what (a buy, an XML or a REST order), when, and whether it was
 * answered (acknowledged or refused by the rules) or failed (no answer, a 5xx, a refusal of an instance not active).
 */
final class Calls {

    /** One attempt. Times are {@link System#nanoTime()}. */
    record Call(String kind, long startedNanos, long endedNanos, boolean answered) {
        long nanos() {
            return endedNanos - startedNanos;
        }
    }

    private final ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();

    void record(String kind, long startedNanos, boolean answered) {
        calls.add(new Call(kind, startedNanos, System.nanoTime(), answered));
    }

    List<Call> all() {
        return List.copyOf(calls);
    }
}
