package dev.agora.perf.stats;

import java.util.concurrent.TimeUnit;

/**
 * The open model's clock: request {@code i} is due at {@code start + i / rate}, whether or not the system
 * kept up. Latency is measured from that intended time, not from when the request actually left, so a
 * stall that delays the sending of later requests shows up in their latency instead of being hidden
 * (coordinated omission).
 */
public record ArrivalSchedule(long startNanos, double ratePerSecond) {

    public ArrivalSchedule {
        if (!(ratePerSecond > 0)) throw new IllegalArgumentException("rate must be positive: " + ratePerSecond);
    }

    public long intendedStartNanos(long requestIndex) {
        return startNanos + Math.round(requestIndex * (TimeUnit.SECONDS.toNanos(1) / ratePerSecond));
    }

    /** Latency as the client experiences it under this arrival rate: from intended start to completion. */
    public long latencyNanos(long requestIndex, long completedNanos) {
        return Math.max(0, completedNanos - intendedStartNanos(requestIndex));
    }
}
