package dev.agora.perf.experiment.bookstore;

import dev.agora.perf.stats.LatencyHistogram;
import java.util.List;
import java.util.function.Predicate;

/**
 * What one fault run says, in milliseconds (NaN where there was nothing to measure). Added latency is a request's
 * latency minus the baseline p50; switch is the same counted from the fault (or the request's start, if later), so a
 * request caught in flight is not charged the time it had spent before the fault.
 *
 * @param refusedAfterMs from SIGKILL until its port refused connections: the kernel's teardown window, in which
 *     requests that met the process found it silent, as if frozen; 0 for a freeze
 * @param goneAfterMs from SIGKILL until the process was reaped; 0 for a freeze
 * @param atFault requests the fault reached, before the restart (or thaw)
 * @param refused those of them that started once the killed process's port refused connections
 * @param onRejoin requests touched by failover once the replica was restarted (or thawed): a cold JVM's first
 *     answers may be slow enough to be repeated elsewhere
 * @param maxLatencyMs the slowest request of the whole run (a freeze: a request caught on the frozen replica waits out
 *     its attempt timeout)
 */
record FaultFigures(
        double baselineP50Ms,
        double baselineP99Ms,
        int failoverBeforeFault,
        double refusedAfterMs,
        double goneAfterMs,
        Group atFault,
        Group refused,
        Group onRejoin,
        double startToReadyMs,
        double readyToRotationMs,
        double readyToServedMs,
        double maxLatencyMs) {

    /**
     * Affected requests of one kind: how many, and the worst added and switch latency among them as the client saw
     * it, and the worst switch as the frontend measured it (its {@code after}: free of the box's scheduling noise
     * that a client's end-to-end latency carries, NaN when no request named one).
     */
    record Group(int count, double worstAddedMs, double worstSwitchMs, double worstSwitchInFrontendMs) {}

    static FaultFigures of(FaultRun.Result r) {
        LatencyHistogram base = r.baseline();
        long p50 = Math.round(base.percentileMillis(50) * 1e6);
        List<FaultRun.Request> atFault = r.affectedByFault();
        return new FaultFigures(
                base.percentileMillis(50),
                base.percentileMillis(99),
                r.touchedBeforeFault().size(),
                millis(r.refusedNanos() - r.faultNanos()),
                millis(r.goneNanos() - r.faultNanos()),
                group(atFault, q -> true, r, p50),
                group(atFault, q -> q.startNanos() >= refusedOrGone(r), r, p50),
                group(r.affectedOnRejoin(), q -> true, r, p50),
                millis(r.startToReadyNanos()),
                millis(r.readyToReadmittedNanos()),
                millis(r.readyToFirstServedNanos()),
                r.requests().stream()
                                .mapToLong(FaultRun.Request::latencyNanos)
                                .max()
                                .orElse(-1)
                        / 1e6);
    }

    /** When connections were refused; when that was not seen, when the process was reaped (later, or the same). */
    private static long refusedOrGone(FaultRun.Result r) {
        return r.refusedNanos() > 0 ? r.refusedNanos() : r.goneNanos();
    }

    private static Group group(
            List<FaultRun.Request> requests, Predicate<FaultRun.Request> which, FaultRun.Result r, long p50) {
        int count = 0;
        long added = Long.MIN_VALUE;
        long switched = Long.MIN_VALUE;
        long switchedInFrontend = -1;
        for (FaultRun.Request q : requests) {
            if (!which.test(q)) continue;
            count++;
            added = Math.max(added, q.latencyNanos() - p50);
            switched = Math.max(switched, q.sinceNanos(r.faultNanos()) - p50);
            switchedInFrontend = Math.max(switchedInFrontend, q.frontendSwitchNanos(r.faultNanos()));
        }
        return count == 0
                ? new Group(0, Double.NaN, Double.NaN, Double.NaN)
                : new Group(count, Math.max(0, added) / 1e6, Math.max(0, switched) / 1e6, millis(switchedInFrontend));
    }

    private static double millis(long nanos) {
        return nanos < 0 ? Double.NaN : nanos / 1e6;
    }
}
