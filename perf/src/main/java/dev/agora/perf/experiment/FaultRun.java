package dev.agora.perf.experiment;

import dev.agora.perf.load.HttpReply;
import dev.agora.perf.stats.LatencyHistogram;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;

/**
 * Continuous closed-loop load while one replica is killed (or frozen) and brought back: records every request
 * and the moments of the fault, of readiness and of the replica's first served request after it.
 */
final class FaultRun {

    enum Fault {
        KILL,
        FREEZE
    }

    record Request(long startNanos, long latencyNanos, int status) {
        boolean ok() {
            return status >= 200 && status < 300;
        }
    }

    /** All times in nanoseconds on the {@link System#nanoTime()} clock; -1 when it did not happen. */
    record Result(
            List<Request> requests,
            long faultNanos,
            long recoveryStartNanos,
            long readyNanos,
            long firstServedNanos,
            Duration startToReady,
            List<String> failureExamples) {

        LatencyHistogram baseline() {
            LatencyHistogram histogram = new LatencyHistogram();
            for (Request request : requests) {
                if (request.startNanos() + request.latencyNanos() < faultNanos)
                    histogram.recordNanos(request.latencyNanos());
            }
            return histogram;
        }

        /** Requests that had started but not finished when the fault hit. */
        List<Request> inFlightAtFault() {
            return requests.stream()
                    .filter(r -> r.startNanos() <= faultNanos && r.startNanos() + r.latencyNanos() >= faultNanos)
                    .toList();
        }

        /** Requests started within the window after the fault whose latency is beyond the threshold. */
        List<Request> slowAfterFault(Duration window, long thresholdNanos) {
            return requests.stream()
                    .filter(r -> r.startNanos() > faultNanos && r.startNanos() <= faultNanos + window.toNanos())
                    .filter(r -> r.latencyNanos() > thresholdNanos)
                    .toList();
        }

        long failures() {
            return requests.stream().filter(r -> !r.ok()).count();
        }
    }

    private FaultRun() {}

    /**
     * @param call makes request {@code i} of client {@code c}
     * @param baseline how long the load runs before the fault
     * @param outage how long the replica stays down before it is restarted (or thawed)
     */
    static Result run(
            Target target,
            String victim,
            Fault fault,
            int clients,
            Duration baseline,
            Duration outage,
            BiFunction<Integer, Long, HttpReply> call)
            throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        List<List<Request>> perClient = new ArrayList<>();
        List<String> failureExamples = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            List<Request> mine = new ArrayList<>();
            perClient.add(mine);
            int client = c;
            threads.add(Thread.ofPlatform().name("fault-load-" + c).start(() -> {
                for (long i = 0; !stop.get(); i++) {
                    long start = System.nanoTime();
                    HttpReply reply = call.apply(client, i);
                    mine.add(new Request(start, System.nanoTime() - start, reply.status()));
                    if (!reply.isSuccess() && failureExamples.size() < 3) {
                        String body = reply.body().length() > 300 ? reply.body().substring(0, 300) : reply.body();
                        failureExamples.add(
                                reply.status() == 0 ? "no answer: " + reply.failure() : reply.status() + " " + body);
                    }
                }
            }));
        }
        String victimUrl = target.url(victim);
        long faultNanos = -1;
        long recoveryStart = -1;
        long[] ready = {-1};
        long[] firstServed = {-1};
        Duration startToReady = Duration.ZERO;
        try {
            Thread.sleep(baseline.toMillis());
            faultNanos = System.nanoTime();
            if (fault == Fault.KILL) target.kill(victim);
            else target.freeze(victim);
            Thread.sleep(outage.toMillis());
            recoveryStart = System.nanoTime();
            Thread monitor = Thread.ofPlatform()
                    .name("fault-monitor")
                    .start(() -> watch(victimUrl, ready, firstServed, fault == Fault.KILL));
            if (fault == Fault.KILL) {
                startToReady = target.restart(victim);
            } else {
                target.thaw(victim);
            }
            monitor.join(Duration.ofSeconds(60));
            monitor.interrupt();
            Thread.sleep(1_000);
        } finally {
            stop.set(true);
            for (Thread thread : threads) thread.join();
        }
        List<Request> all = new ArrayList<>();
        perClient.forEach(all::addAll);
        all.sort((a, b) -> Long.compare(a.startNanos(), b.startNanos()));
        return new Result(
                all, faultNanos, recoveryStart, ready[0], firstServed[0], startToReady, List.copyOf(failureExamples));
    }

    /** Polls readiness, then the served-request count, every 10 ms, for at most a minute. */
    private static void watch(String url, long[] ready, long[] firstServed, boolean freshProcess) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        long served = -1;
        while (System.nanoTime() < deadline && !Thread.currentThread().isInterrupted()) {
            if (ready[0] < 0) {
                if (ServedRequests.ready(url)) {
                    ready[0] = System.nanoTime();
                    OptionalLong count = ServedRequests.of(url);
                    if (count.isEmpty()) return; // no request metrics: cannot see the first served request
                    // a fresh process has served nothing before it was ready; what it counts now came after
                    served = freshProcess ? 0 : count.getAsLong();
                    if (count.getAsLong() > served) {
                        firstServed[0] = ready[0];
                        return;
                    }
                }
            } else {
                OptionalLong count = ServedRequests.of(url);
                if (count.isPresent() && count.getAsLong() > served) {
                    firstServed[0] = System.nanoTime();
                    return;
                }
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
