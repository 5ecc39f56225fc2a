package dev.agora.perf.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The latency histogram of seed 001: buckets of 10 ms, closed on the right, the first one closed on both
 * sides: [0, 10], (10, 20], (20, 30], ... Counts are exact (one slot per request), not approximated.
 */
public final class TenMillisecondBuckets {

    private static final long WIDTH_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    /** Latencies beyond 1000 s all land in the last bucket rather than growing the array without bound. */
    private static final int MAX_BUCKET = 100_000;

    private long[] counts = new long[6];

    /** Index of the bucket holding this latency: 0 for [0, 10] ms, 1 for (10, 20] ms, ... */
    public static int bucketOf(long nanos) {
        if (nanos <= WIDTH_NANOS) return 0;
        long index = (nanos - 1) / WIDTH_NANOS;
        return (int) Math.min(index, MAX_BUCKET);
    }

    /** "[0, 10]" for the first bucket, "(10, 20]" for the second, ... */
    public static String label(int bucket) {
        long lower = bucket * 10L;
        long upper = lower + 10;
        return bucket == 0 ? "[0, 10]" : "(" + lower + ", " + upper + "]";
    }

    public synchronized void recordNanos(long nanos) {
        int bucket = bucketOf(nanos);
        ensureCapacity(bucket);
        counts[bucket]++;
    }

    public synchronized TenMillisecondBuckets add(TenMillisecondBuckets other) {
        for (Bucket bucket : other.buckets()) {
            if (bucket.count() == 0) continue;
            ensureCapacity(bucket.index());
            counts[bucket.index()] += bucket.count();
        }
        return this;
    }

    private void ensureCapacity(int bucket) {
        if (bucket < counts.length) return;
        long[] grown = new long[Math.max(bucket + 1, counts.length * 2)];
        System.arraycopy(counts, 0, grown, 0, counts.length);
        counts = grown;
    }

    /** Every bucket from [0, 10] up to the highest non-empty one (at least the seed's six, up to 60 ms). */
    public synchronized List<Bucket> buckets() {
        int last = 5;
        for (int i = counts.length - 1; i > last; i--) {
            if (counts[i] > 0) {
                last = i;
                break;
            }
        }
        List<Bucket> result = new ArrayList<>(last + 1);
        for (int i = 0; i <= last; i++) result.add(new Bucket(i, label(i), i < counts.length ? counts[i] : 0));
        return result;
    }

    /** The bucket with the most requests (the lowest one on a tie), as the seed reports its mode. */
    public synchronized Bucket mode() {
        Bucket best = null;
        for (Bucket bucket : buckets()) {
            if (best == null || bucket.count() > best.count()) best = bucket;
        }
        return best;
    }

    public record Bucket(int index, String label, long count) {}
}
