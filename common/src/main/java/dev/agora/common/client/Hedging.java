package dev.agora.common.client;

import dev.agora.common.limits.BoundedExecutors;
import dev.agora.common.web.RequestIds;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.context.ContextSnapshot;
import io.micrometer.context.ContextSnapshotFactory;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.MDC;
import org.springframework.cloud.client.ServiceInstance;

/**
 * Hedged attempts, which no Resilience4j release ships: an idempotent attempt with no answer after the service's
 * {@code hedge-after} is also sent to another replica, and the first answer wins. A frozen or dying replica (a
 * SIGKILLed JVM keeps its sockets open while the kernel tears it down) then costs that delay instead of a timeout.
 *
 * <p>The first attempt runs on the caller's thread: a call answered in time (nearly all) costs no thread hand-off.
 * Nor does arming its timer: Netty's {@link HashedWheelTimer} takes a timer without waking its thread, which looks
 * for timers due every {@link #TICK}. A {@code ScheduledThreadPoolExecutor} woke its thread on every call (each
 * call's timer was the earliest it held), and the caller paid for that wake-up (perf/reports/security-cost.md). A
 * hedge is sent at most one tick after its call's {@code hedge-after}, from a small pool; when it answers first it
 * aborts the caller's attempt (its request is cancelled, {@link AttemptScope}), which counts against that replica's
 * breaker. Hedges in flight are bounded per service by a Resilience4j {@link Bulkhead} (a tenth of the service's
 * calls), so a slow service is not sent every call twice; a hedge it refuses is counted in
 * {@code agora.client.hedges.denied}. Owned by the Spring context: its threads end with it.
 */
public final class Hedging implements AutoCloseable {

    /** The caller's attempt was aborted because a hedge answered first. */
    static final class Overtaken extends RuntimeException {
        Overtaken(Throwable cause) {
            super("overtaken by a hedge", cause, false, false);
        }
    }

    /** How often the timer looks for hedges due: a hedge leaves up to this long after its call's delay. */
    static final Duration TICK = Duration.ofMillis(10);

    /** Micrometer's context propagation: every registered thread-local accessor (observation, server timing). */
    private static final ContextSnapshotFactory CONTEXT =
            ContextSnapshotFactory.builder().build();

    private final HashedWheelTimer timers;
    private final ThreadPoolExecutor attempts;
    private final MeterRegistry meters;

    /** @param maxThreads hedges running at once over every service; more are refused (and counted) */
    public Hedging(int maxThreads, MeterRegistry meters) {
        this.meters = meters;
        // No bound of its own: it holds one timer per hedgeable call in flight, which the services' bulkheads bound
        // (agora.clients.*.max-concurrent-calls). A cancelled timer leaves it on the next tick.
        this.timers = new HashedWheelTimer(
                Thread.ofPlatform().name("hedge-timer").daemon().factory(),
                TICK.toNanos(),
                TimeUnit.NANOSECONDS,
                512,
                false);
        // Platform threads: a virtual thread's blocking socket read costs two more wake-ups (poller, carrier).
        this.attempts = new ThreadPoolExecutor(
                0,
                maxThreads,
                30,
                TimeUnit.SECONDS,
                new SynchronousQueue<>(),
                Thread.ofPlatform().name("hedge-", 0).daemon().factory());
        BoundedExecutors.monitor(meters, attempts, "agora.client.hedges");
        meters.gauge("agora.client.hedge.timers", timers, HashedWheelTimer::pendingTimeouts);
    }

    /**
     * Runs {@code call}'s attempt on {@code first} on this thread, and on another replica too when {@code first}
     * has not answered after {@code after}; returns the first answer. A hedge goes only to a replica whose breaker
     * lets it through: it is never a last resort. Failures are the failures of
     * {@link ReplicaClient.Call#once}: when both attempts failed, the caller's (or the hedge's) failure.
     */
    <T> T race(ReplicaClient.Call<T> call, ReplicaClient.Choice first, Duration after) {
        ReplicaClient client = call.client();
        Race<T> race = new Race<>(call, first.instance(), client);
        Timeout timer = schedule(race, after);
        try {
            T result = call.once(first, race.own);
            return result;
        } catch (Overtaken overtaken) {
            race.noteHedge();
            return race.hedgeOutcome();
        } catch (RuntimeException ownFailed) {
            if (timer != null) timer.cancel();
            race.noteHedge();
            if (race.hedge == null) throw ownFailed;
            try {
                return race.hedgeOutcome();
            } catch (ReplicaClient.Retryable | Overtaken hedgeFailedToo) {
                throw ownFailed;
            }
        } finally {
            if (timer != null) timer.cancel();
            race.ownDone();
        }
    }

    private Timeout schedule(Race<?> race, Duration after) {
        try {
            return timers.newTimeout(due -> race.hedge(), after.toNanos(), TimeUnit.NANOSECONDS);
        } catch (IllegalStateException closed) {
            return null;
        }
    }

    /** One hedged attempt pair: the caller's own attempt, and the hedge the timer may send. */
    private final class Race<T> {

        final ReplicaClient.Call<T> call;
        final ServiceInstance first;
        final ReplicaClient client;
        final AttemptScope own;
        /** The caller's request id, which the hedge's request carries too (the only thing the MDC holds here). */
        final String requestId = RequestIds.current();
        /**
         * The caller's thread-local context (#53): its current observation, so the hedge's request is a span of the
         * caller's trace and carries its {@code traceparent}, and where {@code Server-Timing} passes answers on.
         */
        final ContextSnapshot context = CONTEXT.captureAll();

        volatile CompletableFuture<T> hedge;
        volatile long hedgedAfterNanos;
        private boolean ownDone;
        private boolean noted;

        Race(ReplicaClient.Call<T> call, ServiceInstance first, ReplicaClient client) {
            this.call = call;
            this.first = first;
            this.client = client;
            this.own = new AttemptScope();
        }

        synchronized void ownDone() {
            ownDone = true;
        }

        /** On the timer's thread: the caller's attempt has had its time. */
        void hedge() {
            synchronized (this) {
                if (ownDone) return;
            }
            String serviceId = client.serviceId();
            Bulkhead budget = client.hedgeBudget();
            ServiceInstance second = client.choose(first);
            if (second == null || second.getUri().equals(first.getUri())) return;
            CircuitBreaker breaker = client.breaker(second.getUri());
            if (!budget.tryAcquirePermission()) {
                meters.counter("agora.client.hedges.denied", "service", serviceId)
                        .increment();
                return;
            }
            if (!breaker.tryAcquirePermission()) {
                budget.onComplete();
                return;
            }
            CompletableFuture<T> outcome = new CompletableFuture<>();
            hedgedAfterNanos = System.nanoTime() - call.started;
            hedge = outcome;
            try {
                attempts.execute(context.wrap(() -> {
                    if (requestId != null) MDC.put(RequestIds.MDC_KEY, requestId);
                    try {
                        outcome.complete(
                                call.once(new ReplicaClient.Choice(second, breaker, true), new AttemptScope()));
                        own.abort();
                    } catch (RuntimeException failed) {
                        outcome.completeExceptionally(failed);
                        // An answer (a 4xx) wins too; a failure leaves the caller's attempt running.
                        if (!(failed instanceof ReplicaClient.Retryable) && !(failed instanceof ReplicaClient.Failed)) {
                            own.abort();
                        }
                    } finally {
                        budget.onComplete();
                        MDC.clear();
                    }
                }));
            } catch (RejectedExecutionException full) {
                hedge = null;
                budget.onComplete();
                breaker.releasePermission();
                meters.counter("agora.client.hedges.denied", "service", serviceId)
                        .increment();
                return;
            }
            meters.counter("agora.client.hedges", "service", serviceId).increment();
        }

        /** On the caller's thread, which answers the request: the response names the hedge. */
        void noteHedge() {
            if (noted || hedge == null) return;
            noted = true;
            FailoverNotice.record(client.serviceId(), FailoverNotice.Event.HEDGE, null, hedgedAfterNanos);
        }

        /** The hedge's own timeout bounds it; the wait's bound is only a safety net. */
        T hedgeOutcome() {
            try {
                return hedge.get(client.settings().timeout().toMillis() + 1_000, TimeUnit.MILLISECONDS);
            } catch (ExecutionException failed) {
                if (failed.getCause() instanceof RuntimeException runtime) throw runtime;
                throw new IllegalStateException(failed.getCause());
            } catch (TimeoutException late) {
                throw new ReplicaClient.Failed("the hedge did not end within its timeout", late);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ReplicaClient.Failed("interrupted", e);
            }
        }
    }

    @Override
    public void close() {
        timers.stop();
        attempts.shutdownNow();
    }
}
