package dev.agora.perf.load;

import dev.agora.perf.stats.ArrivalSchedule;
import dev.agora.perf.stats.LatencyHistogram;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongFunction;

/**
 * The open model: requests arrive at a fixed rate whether or not earlier ones have finished, each on its
 * own virtual thread. Latency counts from the request's intended send time ({@link ArrivalSchedule}), so
 * queueing anywhere, in the client's connection pool included, is charged to the system under test.
 */
public final class OpenLoad {

    /** Requests still running this long after the last arrival are given up on and counted incomplete. */
    private static final Duration GRACE = Duration.ofSeconds(15);

    private OpenLoad() {}

    public record Result(
            double offeredPerSecond,
            double achievedPerSecond,
            LatencyHistogram fromIntendedStart,
            LatencyHistogram serviceTime,
            long failures,
            long incomplete) {}

    /**
     * Sends {@code ratePerSecond x duration} requests; {@code call} gets the request's index and returns
     * the reply.
     */
    public static Result run(double ratePerSecond, Duration duration, LongFunction<HttpReply> call) {
        long total = Math.max(1, Math.round(ratePerSecond * duration.toNanos() / 1e9));
        LatencyHistogram fromIntended = new LatencyHistogram();
        LatencyHistogram service = new LatencyHistogram();
        AtomicLong failures = new AtomicLong();
        AtomicLong completed = new AtomicLong();
        AtomicLong lastCompletion = new AtomicLong();
        ArrivalSchedule schedule = new ArrivalSchedule(System.nanoTime(), ratePerSecond);
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        try {
            for (long i = 0; i < total; i++) {
                long intended = schedule.intendedStartNanos(i);
                long wait;
                while ((wait = intended - System.nanoTime()) > 0) LockSupport.parkNanos(wait);
                long index = i;
                executor.execute(() -> {
                    long sent = System.nanoTime();
                    HttpReply reply = call.apply(index);
                    long done = System.nanoTime();
                    synchronized (fromIntended) {
                        fromIntended.recordNanos(schedule.latencyNanos(index, done));
                        service.recordNanos(done - sent);
                    }
                    if (!reply.isSuccess()) failures.incrementAndGet();
                    completed.incrementAndGet();
                    lastCompletion.accumulateAndGet(done, Math::max);
                });
            }
            executor.shutdown();
            if (!executor.awaitTermination(GRACE.toMillis(), TimeUnit.MILLISECONDS)) executor.shutdownNow();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            executor.shutdownNow();
        }
        long elapsed = Math.max(1, lastCompletion.get() - schedule.startNanos());
        synchronized (fromIntended) {
            return new Result(
                    ratePerSecond,
                    completed.get() / (elapsed / 1e9),
                    new LatencyHistogram().add(fromIntended),
                    new LatencyHistogram().add(service),
                    failures.get(),
                    total - completed.get());
        }
    }
}
