package dev.agora.common.client;

import java.util.Arrays;

/**
 * How long an idempotent call to one service waits for an answer before it is also sent to another replica: a
 * high percentile of that service's recent answer times ("The Tail at Scale": hedging at the p95 costs about 5%
 * more calls and bounds what a slow, frozen or dying replica costs to about one usual slow answer), never below
 * {@code floor} (so a fast service is not hedged on scheduling noise) nor above {@code cap} (the configured hedge
 * delay, which keeps the freeze bound). Until enough answers were seen it is the cap.
 *
 * <p>A dying replica matters most: a SIGKILLed JVM keeps its sockets open while the kernel unmaps its memory
 * (tens of ms), so a call that meets it gets no answer in that time and is saved by the hedge alone.
 */
final class HedgeDelay {

    /** Answers remembered: enough for a stable p95 (about 13 above it), few enough to follow a load change. */
    private static final int WINDOW = 256;

    /** The delay is recomputed after this many new answers, so a call never sorts the window itself. */
    private static final int RECOMPUTE_EVERY = 32;

    private final int percentile;
    private final long floorNanos;
    private final long capNanos;
    private final long[] answers = new long[WINDOW];
    /** A long: an int would wrap after 2^31 answers and index the window with a negative remainder. */
    private long recorded;

    private volatile long currentNanos;

    /**
     * @param percentile of recent answer times to hedge at; 0 keeps the cap always (a fixed hedge delay)
     */
    HedgeDelay(int percentile, long floorNanos, long capNanos) {
        if (percentile < 0 || percentile >= 100) throw new IllegalArgumentException("percentile must be in [0, 100)");
        this.percentile = percentile;
        this.capNanos = capNanos;
        this.floorNanos = Math.min(floorNanos, capNanos);
        this.currentNanos = capNanos;
    }

    long nanos() {
        return currentNanos;
    }

    /** One answer (a result or a 4xx) took this long; failures say nothing about a healthy replica's speed. */
    void answered(long nanos) {
        if (percentile == 0) return;
        long[] snapshot;
        synchronized (this) {
            answers[(int) (recorded % WINDOW)] = nanos;
            recorded++;
            if (recorded < WINDOW / 4 || recorded % RECOMPUTE_EVERY != 0) return;
            snapshot = Arrays.copyOf(answers, (int) Math.min(recorded, WINDOW));
        }
        Arrays.sort(snapshot);
        long atPercentile = snapshot[Math.min(snapshot.length - 1, snapshot.length * percentile / 100)];
        currentNanos = Math.clamp(atPercentile, floorNanos, capNanos);
    }
}
