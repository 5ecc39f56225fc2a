package dev.agora.common.client;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One thread that acts for hedged calls whose attempt runs on the caller's own thread: when a call's hedge delay
 * or deadline comes, it sends the hedge or aborts the attempt ({@link Watched#due}).
 *
 * <p>Why not a scheduled task per call: scheduling one wakes the scheduler thread on every call, and a call
 * that answers in time (nearly all) would pay for that wake-up and for the cancellation. Instead a call is only
 * added to a set; while calls come, the watch looks at the set at least every {@code poll} (never longer than the
 * shortest hedge delay it has been given, so it sees every call before the call is due) and sleeps exactly until
 * the earliest due call. After a second without calls it sleeps until the next one wakes it.
 */
final class HedgeWatch {

    private static final Logger log = LoggerFactory.getLogger(HedgeWatch.class);

    /**
     * A call being watched, until it unwatches itself: only the call knows when it is done, so the watch never
     * drops a call on its own (it could drop one that has just been armed again for its next attempt).
     */
    interface Watched {
        /** When it wants {@link #due} next (System.nanoTime based), or {@link #NEVER}. */
        long dueNanos();

        /** Called on the watch's thread at or after {@link #dueNanos()}, which it moves on. */
        void due(long nowNanos);
    }

    static final long NEVER = Long.MAX_VALUE;

    private static final long MAX_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    private static final long IDLE_AFTER_NANOS = TimeUnit.SECONDS.toNanos(1);

    static final HedgeWatch INSTANCE = new HedgeWatch();

    private final Set<Watched> watched = ConcurrentHashMap.newKeySet();
    private final Thread thread;
    private volatile long pollNanos = MAX_POLL_NANOS;
    private volatile boolean idle;

    private HedgeWatch() {
        thread = Thread.ofPlatform().name("failover-hedge-watch").daemon().start(this::run);
    }

    /** Watches a call that is due no earlier than {@code shortestDelayNanos} from now. */
    void watch(Watched call, long shortestDelayNanos) {
        watched.add(call);
        long poll = pollNanos;
        if (shortestDelayNanos < poll) {
            pollNanos = Math.max(shortestDelayNanos, TimeUnit.MICROSECONDS.toNanos(100));
            LockSupport.unpark(thread);
        } else if (idle) {
            LockSupport.unpark(thread);
        }
    }

    void unwatch(Watched call) {
        watched.remove(call);
    }

    private void run() {
        long lastBusy = System.nanoTime();
        while (true) {
            long now = System.nanoTime();
            long wakeAt = now + pollNanos;
            for (Watched call : watched) {
                long due = call.dueNanos();
                if (due != NEVER && due - now <= 0) {
                    actSafely(call, now);
                    due = call.dueNanos();
                }
                if (due != NEVER && due - wakeAt < 0) wakeAt = due;
            }
            if (!watched.isEmpty()) lastBusy = now;
            if (now - lastBusy > IDLE_AFTER_NANOS) {
                idle = true;
                if (watched.isEmpty()) LockSupport.park(this);
                idle = false;
                lastBusy = System.nanoTime();
            } else {
                LockSupport.parkNanos(this, wakeAt - now);
            }
        }
    }

    private void actSafely(Watched call, long now) {
        try {
            call.due(now);
        } catch (RuntimeException e) {
            // The watch must outlive any one call's failure; that call then runs to its own read timeout.
            log.error("A hedged call failed to act on its hedge delay", e);
            watched.remove(call);
        }
    }
}
