package dev.agora.perf.compare;

import dev.agora.perf.stats.LatencySummary;
import java.util.Map;

/**
 * One batch's outcome: its latencies (HdrHistogram), the answers that were not 2xx, and the CPU time each tier of
 * the measured cluster spent while it ran.
 *
 * @param firstFailure status and body (or the I/O error) of the first non-2xx answer; empty when none
 * @param cpuMillis per tier, CPU milliseconds between the batch's first request and its last answer
 * @param invalidationPushMillis buys only: the mean time a catalog write waited for its invalidation to reach every
 *     frontend during the batch; NaN for other kinds, or when the catalog has no such timer
 */
public record BatchResult(
        RoundSchedule.Batch batch,
        LatencySummary latency,
        long failures,
        String firstFailure,
        Map<CpuTier, Double> cpuMillis,
        double invalidationPushMillis) {

    public BatchResult {
        cpuMillis = Map.copyOf(cpuMillis);
    }

    /** CPU milliseconds a tier spent per request of this batch; NaN without requests or a reading. */
    public double cpuMillisPerRequest(CpuTier tier) {
        Double millis = cpuMillis.get(tier);
        return millis == null || latency.count() == 0 ? Double.NaN : millis / latency.count();
    }
}
