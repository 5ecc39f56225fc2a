package dev.agora.common.client;

import dev.agora.common.client.FailoverClient.Attempt;
import dev.agora.common.client.FailoverClient.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.MDC;

/**
 * One idempotent call with hedging: when an attempt has no answer after the hedge delay, the same request also
 * goes to another admitted replica, a failed attempt is repeated elsewhere at once, and the first answer (a
 * result or a 4xx) wins; later ones are dropped.
 *
 * <p>The first attempt runs on the caller's own thread, so a call answered within the hedge delay (nearly all)
 * costs no thread hand-off: handing it to a pooled thread and waiting for that thread cost two thread wake-ups
 * per call, about 0.1-0.2 ms of each hop on a busy 2-core machine. The {@link HedgeWatch} sends the hedge when
 * the delay passes; hedges run on pooled threads, and when one answers first it aborts the caller's attempt
 * ({@link AttemptAbort}), which ends its blocked read at once. From then on the caller waits for the running
 * attempts as any other waiter would.
 */
final class HedgedCall<T> implements HedgeWatch.Watched {

    /**
     * Hedges, and attempts repeated while a hedge runs. Pooled platform threads, not virtual ones: a virtual
     * thread's blocking socket read parks it and costs two more thread wake-ups (the poller, then a carrier).
     */
    private static final ExecutorService ATTEMPTS = Executors.newCachedThreadPool(
            Thread.ofPlatform().name("failover-attempt-", 0).daemon().factory());

    private final FailoverClient client;
    private final ServicePool pool;
    private final String serviceId;
    private final Attempt<T> attempt;
    private final long hedgeNanos;
    private final long started;
    private final long deadline;
    private final int maxAttempts;
    private final Map<String, String> context = MDC.getCopyOfContextMap();
    private final BlockingQueue<Finished<T>> finished = new LinkedBlockingQueue<>();

    // Shared with the watch while the caller runs an attempt itself (guarded by this); the caller's alone after.
    private final List<Instance> tried = new ArrayList<>(2);
    private final List<Instance> running = new ArrayList<>(2);
    /** When, after the call's start, the watch sent hedges: noted on the caller's thread (the response's). */
    private final List<Long> hedgedAfterNanos = new ArrayList<>(1);

    private AttemptAbort ownAttempt;
    private long nextHedge;
    private boolean timedOut;
    private volatile long dueNanos;

    // The caller's alone.
    /** Replicas whose attempt was aborted because a hedge answered first: they lost the race. */
    private final List<Instance> overtaken = new ArrayList<>(1);

    private Outcome<T> lastFailed;

    HedgedCall(
            FailoverClient client, ServicePool pool, Attempt<T> attempt, long hedgeNanos, long started, long deadline) {
        this.client = client;
        this.pool = pool;
        this.serviceId = pool.serviceId();
        this.attempt = attempt;
        this.hedgeNanos = hedgeNanos;
        this.started = started;
        this.deadline = deadline;
        this.maxAttempts = client.settings().maxAttempts();
        this.nextHedge = started + hedgeNanos;
    }

    T run() {
        Instance next = pool.choose(tried, true);
        if (next == null) throw FailoverClient.unavailable(serviceId, 0, null);
        while (true) {
            Outcome<T> own = runOnCallersThread(next);
            for (long after : hedgedAfterNanos) {
                FailoverNotice.record(serviceId, FailoverNotice.Event.HEDGE, null, after);
            }
            if (own.succeeded()) return own.result();
            if (own.answered()) throw own.error();
            if (timedOut) break;
            if (own.abandoned()) {
                overtaken.add(next);
            } else {
                lastFailed = own;
            }
            if (!running.isEmpty()) return awaitFirstAnswer();
            if (tried.size() >= maxAttempts || System.nanoTime() - deadline >= 0) break;
            next = pool.choose(tried, true);
            if (next == null) break;
            client.failedOver(serviceId, lastFailed, started);
            nextHedge = System.nanoTime() + hedgeNanos;
        }
        if (timedOut) {
            client.meters()
                    .counter("agora.client.call.timeouts", "service", serviceId)
                    .increment();
        }
        throw FailoverClient.unavailable(serviceId, tried.size(), lastFailed);
    }

    private Outcome<T> runOnCallersThread(Instance instance) {
        AttemptAbort abort = new AttemptAbort();
        synchronized (this) {
            tried.add(instance);
            ownAttempt = abort;
            hedgedAfterNanos.clear();
            dueNanos = mayHedge() ? nextHedge : deadline;
        }
        HedgeWatch.INSTANCE.watch(this, hedgeNanos);
        try {
            return client.attempt(pool, instance, attempt, abort);
        } finally {
            synchronized (this) {
                ownAttempt = null;
            }
            HedgeWatch.INSTANCE.unwatch(this);
        }
    }

    @Override
    public long dueNanos() {
        return dueNanos;
    }

    /** On the watch's thread: the hedge delay or the deadline of the attempt running on the caller's thread. */
    @Override
    public synchronized void due(long now) {
        if (ownAttempt == null) {
            dueNanos = HedgeWatch.NEVER; // between attempts: the next one arms it again
            return;
        }
        if (now - deadline >= 0) {
            timedOut = true;
            ownAttempt.abort();
            dueNanos = HedgeWatch.NEVER;
            return;
        }
        if (now - nextHedge >= 0 && mayHedge()) {
            if (hedge()) hedgedAfterNanos.add(now - started);
        }
        dueNanos = mayHedge() ? nextHedge : deadline;
    }

    private boolean mayHedge() {
        return tried.size() < maxAttempts && nextHedge - deadline < 0;
    }

    /** Sends the call to one more replica, if one is there and the budget allows; true when it did. */
    private boolean hedge() {
        // Any replica that may serve it, also one ejected for slowness whose probes pass: on a starved machine
        // a healthy replica can be ejected as slow, and a hedge to it still helps.
        Instance hedge = pool.choose(tried, true);
        if (hedge == null) {
            nextHedge = deadline; // nothing to hedge to: wait for what runs
            return false;
        }
        if (!pool.hedgeBudget().trySpend()) {
            client.meters()
                    .counter("agora.client.hedges.denied", "service", serviceId)
                    .increment();
            nextHedge = deadline; // the budget is spent: wait for what runs
            return false;
        }
        client.meters().counter("agora.client.hedges", "service", serviceId).increment();
        start(hedge);
        nextHedge = System.nanoTime() + hedgeNanos;
        return true;
    }

    private void start(Instance instance) {
        tried.add(instance);
        running.add(instance);
        ATTEMPTS.submit(() -> {
            if (context != null) MDC.setContextMap(context);
            try {
                Outcome<T> outcome = client.attempt(pool, instance, attempt, null);
                finished.add(new Finished<>(instance, outcome));
                if (outcome.succeeded() || outcome.answered()) answerArrived();
            } finally {
                MDC.clear();
            }
        });
    }

    /** An attempt on a pooled thread answered: it wins over the caller's own attempt, if that still runs. */
    private synchronized void answerArrived() {
        if (ownAttempt != null) ownAttempt.abort();
    }

    /** After the caller's own attempt: waits for the first answer of those still running, hedging on meanwhile. */
    private T awaitFirstAnswer() {
        try {
            while (!running.isEmpty()) {
                long now = System.nanoTime();
                if (now - deadline >= 0) break;
                boolean mayHedge = mayHedge();
                long waitUntil = mayHedge ? nextHedge : deadline;
                Finished<T> done = finished.poll(Math.max(0, waitUntil - now), TimeUnit.NANOSECONDS);
                if (done == null) {
                    if (!mayHedge || System.nanoTime() - deadline >= 0) continue;
                    long hedgedAfter = System.nanoTime() - started;
                    if (hedge()) FailoverNotice.record(serviceId, FailoverNotice.Event.HEDGE, null, hedgedAfter);
                    continue;
                }
                running.remove(done.instance());
                Outcome<T> outcome = done.outcome();
                if (!outcome.succeeded() && !outcome.answered()) {
                    lastFailed = outcome;
                } else {
                    // Replicas asked earlier that have still not answered lost the race to a later one.
                    List<Instance> slower = new ArrayList<>(overtaken);
                    for (Instance slow : running) {
                        if (tried.indexOf(slow) < tried.indexOf(done.instance())) slower.add(slow);
                    }
                    for (Instance slow : slower) {
                        if (slow.overtaken(
                                client.settings().overtakenToEject(), pool.othersAdmitted(slow), System.nanoTime())) {
                            client.ejected(slow, "slow", null);
                        }
                    }
                    if (outcome.succeeded()) return outcome.result();
                    throw outcome.error();
                }
                if (running.isEmpty() && tried.size() < maxAttempts) {
                    Instance next = pool.choose(tried, true);
                    if (next != null) {
                        client.failedOver(serviceId, lastFailed, started);
                        start(next);
                        nextHedge = System.nanoTime() + hedgeNanos;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!running.isEmpty()) {
            client.meters()
                    .counter("agora.client.call.timeouts", "service", serviceId)
                    .increment();
        }
        throw FailoverClient.unavailable(serviceId, tried.size(), lastFailed);
    }

    private record Finished<T>(Instance instance, Outcome<T> outcome) {}
}
