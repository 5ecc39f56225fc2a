package dev.agora.perf.stats;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Attempts counted in bins of equal width by the moment each ended, answered apart from failed: how a load went
 * through a fault, as a chart draws it. Times are {@link System#nanoTime()} readings; the bins cover {@code before}
 * the origin (the fault, or the load's start) to {@code after} it, and an attempt ending outside is not counted.
 */
public final class Timeline {

    private final long originNanos;
    private final long firstNanos;
    private final long binNanos;
    private final long[] answered;
    private final long[] failed;

    public Timeline(long originNanos, Duration before, Duration after, Duration bin) {
        if (bin.isZero() || bin.isNegative()) throw new IllegalArgumentException("a bin must be longer than zero");
        this.originNanos = originNanos;
        this.firstNanos = originNanos - before.toNanos();
        this.binNanos = bin.toNanos();
        int bins = (int) Math.ceilDiv(before.plus(after).toNanos(), binNanos);
        this.answered = new long[bins];
        this.failed = new long[bins];
    }

    public synchronized void add(long endedNanos, boolean wasAnswered) {
        long offset = endedNanos - firstNanos;
        if (offset < 0) return;
        long bin = offset / binNanos;
        if (bin >= answered.length) return;
        if (wasAnswered) answered[(int) bin]++;
        else failed[(int) bin]++;
    }

    /** Each bin's start, in seconds from the origin (negative before it). */
    public List<Double> binStartSeconds() {
        List<Double> starts = new ArrayList<>(answered.length);
        for (int bin = 0; bin < answered.length; bin++) {
            starts.add((firstNanos + bin * binNanos - originNanos) / 1e9);
        }
        return starts;
    }

    /** Answered attempts per second in each bin. */
    public synchronized List<Double> answeredPerSecond() {
        return perSecond(answered);
    }

    /** Failed attempts per second in each bin. */
    public synchronized List<Double> failedPerSecond() {
        return perSecond(failed);
    }

    @Override
    public synchronized String toString() {
        return Arrays.stream(answered).sum() + " answered, "
                + Arrays.stream(failed).sum() + " failed in " + answered.length + " bins";
    }

    private List<Double> perSecond(long[] counts) {
        List<Double> rates = new ArrayList<>(counts.length);
        for (long count : counts) rates.add(count * 1e9 / binNanos);
        return rates;
    }
}
