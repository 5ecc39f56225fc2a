package dev.agora.perf.experiment.bookstore;

import dev.agora.perf.experiment.Target;
import dev.agora.perf.load.HttpReply;
import dev.agora.perf.stats.LatencyHistogram;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;

/**
 * A light closed-loop load (each client pauses between requests, so the box is not saturated and the baseline
 * tail is small) while one replica is killed (or frozen) and brought back: records every request with the
 * failover the frontend reports for it, and the moments of the fault, of the replica's readiness, of a frontend
 * taking it back into its load balancing and of its first served request after it.
 */
final class FaultRun {

    enum Fault {
        /** SIGKILL under load: requests in flight meet the dying JVM during the kernel's teardown. */
        KILL,
        /**
         * SIGKILL between requests: the clients hold back while the victim is killed and torn down, and resume once
         * its port refuses connections, so the requests the crash reaches meet exactly that: a refused connection (or a
         * pooled connection the dead process closed), before any caller knew of the crash.
         */
        KILL_BETWEEN_REQUESTS,
        FREEZE;

        boolean kills() {
            return this != FREEZE;
        }
    }

    /**
     * One request. {@code failover}: the frontend's {@code Agora-Failover} entries (a call it repeated on another
     * replica), empty when no failover touched the request.
     */
    record Request(long startNanos, long latencyNanos, int status, String failover) {
        boolean ok() {
            return status >= 200 && status < 300;
        }

        boolean touchedByFailover() {
            return !failover.isEmpty();
        }

        long endNanos() {
            return startNanos + latencyNanos;
        }

        /**
         * The frontend's own measure of what failover cost this request: the latest {@code after} of its
         * {@code Agora-Failover} entries (from the frontend's call to the start of the attempt that was repeated
         * elsewhere), in nanoseconds, counted from the fault when the request was caught in flight (the
         * frontend's call starts a little after the client's request, so this errs low by that hop); -1 when no
         * entry names one.
         */
        long frontendSwitchNanos(long faultNanos) {
            long latest = -1;
            for (String parameter : failover.split("[,;]")) {
                String trimmed = parameter.strip();
                if (trimmed.startsWith("after=")) {
                    long after = Math.round(Double.parseDouble(trimmed.substring("after=".length())) * 1e6);
                    latest = Math.max(latest, after);
                }
            }
            if (latest < 0) return -1;
            return Math.max(0, latest - Math.max(0, faultNanos - startNanos));
        }

        /**
         * How long it took from the fault (or its own start, if later) to its answer: for a request caught in flight
         * this leaves out the time it had already spent before the fault hit, which no failover could save.
         */
        long sinceNanos(long faultNanos) {
            return endNanos() - Math.max(startNanos, faultNanos);
        }
    }

    /** How long each part of a run lasts, and how the clients pace themselves. */
    record Plan(int clients, Duration thinkTime, Duration baseline, Duration outage, Duration afterRecovery) {}

    /**
     * All times in nanoseconds on the {@link System#nanoTime()} clock; -1 when it did not happen. {@code refusedNanos}:
     * when the killed process's port first refused a connection (a SIGKILLed JVM is torn down by the kernel for a
     * while, holding its sockets open: the teardown window); {@code goneNanos}: when the killed process had been
     * reaped. Both are the fault itself for a freeze.
     */
    record Result(
            List<Request> requests,
            long faultNanos,
            long refusedNanos,
            long goneNanos,
            long recoveryStartNanos,
            long readyNanos,
            long readmittedNanos,
            long firstServedNanos,
            List<String> failureExamples) {

        /** Requests that ended before the fault. */
        LatencyHistogram baseline() {
            LatencyHistogram histogram = new LatencyHistogram();
            for (Request request : requests) {
                if (request.endNanos() < faultNanos) histogram.recordNanos(request.latencyNanos());
            }
            return histogram;
        }

        /**
         * Requests failover touched before the fault: what failover costs on this box without any fault (an attempt
         * slower than its timeout is repeated too), so the affected count below can be read against it.
         */
        List<Request> touchedBeforeFault() {
            return requests.stream()
                    .filter(r -> r.endNanos() < faultNanos && r.touchedByFailover())
                    .toList();
        }

        /**
         * Requests the fault itself reached: touched by failover, still running at the fault or started after it,
         * and started before the replica was restarted (or thawed).
         */
        List<Request> affectedByFault() {
            return requests.stream()
                    .filter(r ->
                            r.touchedByFailover() && r.endNanos() >= faultNanos && r.startNanos() < recoveryStartNanos)
                    .toList();
        }

        /** Requests touched by failover that started once the replica was being restarted (or thawed). */
        List<Request> affectedOnRejoin() {
            return requests.stream()
                    .filter(r -> r.touchedByFailover() && r.startNanos() >= recoveryStartNanos)
                    .toList();
        }

        /** Restart (or thaw) to the replica answering ready; -1 when it did not get ready. */
        long startToReadyNanos() {
            return readyNanos > 0 ? readyNanos - recoveryStartNanos : -1;
        }

        /** Ready to a frontend having it back in its load balancing; -1 when either was not seen. */
        long readyToReadmittedNanos() {
            return readyNanos > 0 && readmittedNanos > 0 ? readmittedNanos - readyNanos : -1;
        }

        /** Ready to the replica's first served (completed) request; -1 when either was not seen. */
        long readyToFirstServedNanos() {
            return readyNanos > 0 && firstServedNanos > 0 ? firstServedNanos - readyNanos : -1;
        }

        long failures() {
            return requests.stream().filter(r -> !r.ok()).count();
        }
    }

    private static final Duration WATCH_LIMIT = Duration.ofSeconds(90);
    private static final Duration POLL = Duration.ofMillis(10);

    private FaultRun() {}

    /**
     * Load runs for the baseline, then the fault hits; after the outage the replica is restarted (or thawed),
     * and the load goes on until the replica has served again (at most {@link #WATCH_LIMIT}) and then for
     * {@code afterRecovery}.
     *
     * @param call makes request {@code i} of client {@code c}
     */
    static Result run(Target target, String victim, Fault fault, Plan plan, BiFunction<Integer, Long, HttpReply> call)
            throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        RequestGate gate = new RequestGate();
        List<List<Request>> perClient = new ArrayList<>();
        List<String> failureExamples = Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < plan.clients(); c++) {
            List<Request> mine = new ArrayList<>();
            perClient.add(mine);
            int client = c;
            threads.add(Thread.ofPlatform().name("fault-load-" + c).start(() -> {
                for (long i = 0; !stop.get(); i++) {
                    if (!gate.enter()) return;
                    long start = System.nanoTime();
                    HttpReply reply;
                    try {
                        reply = call.apply(client, i);
                    } finally {
                        gate.exit();
                    }
                    mine.add(new Request(start, System.nanoTime() - start, reply.status(), reply.failover()));
                    if (!reply.isSuccess() && failureExamples.size() < 3) failureExamples.add(describe(reply));
                    if (!pause(plan.thinkTime())) return;
                }
            }));
        }
        String victimUrl = target.url(victim);
        long faultNanos = -1;
        long refusedNanos = -1;
        long goneNanos = -1;
        long recoveryStart = -1;
        Recovery recovery = new Recovery();
        try {
            Thread.sleep(plan.baseline().toMillis());
            if (fault == Fault.KILL_BETWEEN_REQUESTS) gate.closeWhenIdle();
            RefusalWatch refusal = fault.kills() ? RefusalWatch.start(victimUrl) : null;
            faultNanos = System.nanoTime();
            if (fault.kills()) target.kill(victim); // returns once the process is reaped
            else target.freeze(victim);
            goneNanos = fault.kills() ? System.nanoTime() : faultNanos;
            refusedNanos = refusal != null ? refusal.refusedNanos() : faultNanos;
            gate.open();
            Thread.sleep(plan.outage().toMillis());
            recoveryStart = System.nanoTime();
            BooleanSupplier inRotation = inRotation(target, victim);
            Thread monitor = Thread.ofPlatform()
                    .name("fault-monitor")
                    .start(() -> watch(victimUrl, inRotation, recovery, fault.kills()));
            if (fault.kills()) target.restart(victim);
            else target.thaw(victim);
            monitor.join(WATCH_LIMIT);
            monitor.interrupt();
            Thread.sleep(plan.afterRecovery().toMillis());
        } finally {
            // No interrupt: a load thread interrupted inside a request would record a failure the fault did not cause.
            stop.set(true);
            gate.open();
            for (Thread thread : threads) thread.join();
        }
        List<Request> all = new ArrayList<>();
        perClient.forEach(all::addAll);
        all.sort((a, b) -> Long.compare(a.startNanos(), b.startNanos()));
        return new Result(
                all,
                faultNanos,
                refusedNanos,
                goneNanos,
                recoveryStart,
                recovery.ready,
                recovery.readmitted,
                recovery.firstServed,
                List.copyOf(failureExamples));
    }

    /**
     * Whether a frontend has every replica of the victim's service in rotation again ({@link Rotation}): the victim is
     * named after its service, {@code catalog-2} of {@code catalog}, whose callers know it as {@code catalog-service}.
     */
    private static BooleanSupplier inRotation(Target target, String victim) {
        String service = victim.substring(0, Math.max(0, victim.lastIndexOf('-')));
        if (!target.instanceNames(service).contains(victim)) {
            throw new IllegalArgumentException("Not named <service>-<n>: " + victim);
        }
        int replicas = target.urls(service).size();
        List<String> frontends = target.urls("frontend");
        return () -> Rotation.allAdmittedByAny(frontends, service + "-service", replicas);
    }

    private static String describe(HttpReply reply) {
        String body = reply.body().length() > 300 ? reply.body().substring(0, 300) : reply.body();
        return reply.status() == 0 ? "no answer: " + reply.failure() : reply.status() + " " + body;
    }

    /** Sleeps between a client's requests; false when the run is over. */
    private static boolean pause(Duration thinkTime) {
        if (thinkTime.isZero()) return true;
        try {
            Thread.sleep(thinkTime);
            return true;
        } catch (InterruptedException stopped) {
            return false;
        }
    }

    /** Lets the clients' requests through, or holds them back while a fault is set up between requests. */
    private static final class RequestGate {
        private boolean closed;
        private int inFlight;

        /** Waits while the gate is closed, then counts a request in; false when interrupted. */
        synchronized boolean enter() {
            try {
                while (closed) wait();
            } catch (InterruptedException stopped) {
                return false;
            }
            inFlight++;
            return true;
        }

        synchronized void exit() {
            inFlight--;
            notifyAll();
        }

        /** Holds back new requests and waits until none is in flight. */
        synchronized void closeWhenIdle() throws InterruptedException {
            closed = true;
            while (inFlight > 0) wait();
        }

        synchronized void open() {
            closed = false;
            notifyAll();
        }
    }

    /** When the recovering replica got ready, back into a caller's rotation, and served its first request. */
    private static final class Recovery {
        volatile long ready = -1;
        volatile long readmitted = -1;
        volatile long firstServed = -1;

        boolean complete() {
            return ready > 0 && readmitted > 0 && firstServed > 0;
        }
    }

    /**
     * Polls readiness, then whether a caller has the replica back in rotation and the replica's served-request
     * count, every 10 ms. Readiness is polled from the restart on, so start-to-ready has the poll's resolution
     * rather than the launcher's.
     */
    private static void watch(String url, BooleanSupplier inRotation, Recovery recovery, boolean freshProcess) {
        long deadline = System.nanoTime() + WATCH_LIMIT.toNanos();
        long served = -1;
        while (System.nanoTime() < deadline && !recovery.complete()) {
            if (recovery.ready < 0) {
                if (ServedRequests.ready(url)) {
                    recovery.ready = System.nanoTime();
                    OptionalLong count = ServedRequests.of(url);
                    // a fresh process has served nothing before it was ready; what it counts now came after
                    served = freshProcess ? 0 : count.orElse(0);
                    if (count.orElse(0) > served) recovery.firstServed = recovery.ready;
                }
            } else {
                if (recovery.readmitted < 0 && inRotation.getAsBoolean()) {
                    recovery.readmitted = System.nanoTime();
                }
                if (recovery.firstServed < 0) {
                    OptionalLong count = ServedRequests.of(url);
                    if (count.isPresent() && count.getAsLong() > served) recovery.firstServed = System.nanoTime();
                }
            }
            if (!pause(POLL)) return;
        }
    }
}
