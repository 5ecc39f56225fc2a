package dev.agora.common.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Real pools filled to their bounds with real threads held on a latch. */
class BoundedExecutorsTest {

    private final MeterRegistry meters = new SimpleMeterRegistry();

    @Test
    void anOverflowIsCountedAndStillGoesToThePoolsOwnPolicy() throws Exception {
        ThreadPoolExecutor pool = BoundedExecutors.monitor(
                meters,
                new ThreadPoolExecutor(
                        1,
                        1,
                        0,
                        TimeUnit.SECONDS,
                        new ArrayBlockingQueue<>(3),
                        new ThreadPoolExecutor.CallerRunsPolicy()),
                "test.caller-runs");
        CountDownLatch hold = new CountDownLatch(1);
        try {
            holdTheOnlyThread(pool, hold);
            for (int i = 0; i < 3; i++) pool.execute(() -> {});
            assertThat(gauge("executor.queued", "test.caller-runs")).isEqualTo(3);
            assertThat(gauge("agora.executor.queue.capacity", "test.caller-runs"))
                    .isEqualTo(3);

            AtomicReference<Thread> ranOn = new AtomicReference<>();
            pool.execute(() -> ranOn.set(Thread.currentThread()));

            assertThat(ranOn.get()).as("caller-runs still runs it here").isSameAs(Thread.currentThread());
            assertThat(rejected("test.caller-runs")).isEqualTo(1);
        } finally {
            hold.countDown();
            pool.shutdown();
        }
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aPoolWithoutAQueueRefusesOnceItsThreadsAreBusyAndATaskRefusedAtShutdownIsNotCounted() throws Exception {
        ThreadPoolExecutor pool = BoundedExecutors.monitor(
                meters, new ThreadPoolExecutor(0, 1, 30, TimeUnit.SECONDS, new SynchronousQueue<>()), "test.abort");
        CountDownLatch hold = new CountDownLatch(1);
        try {
            holdTheOnlyThread(pool, hold);
            assertThat(gauge("agora.executor.queue.capacity", "test.abort")).isZero();
            assertThatThrownBy(() -> pool.execute(() -> {})).isInstanceOf(RejectedExecutionException.class);
            assertThat(rejected("test.abort")).isEqualTo(1);
        } finally {
            hold.countDown();
            pool.shutdown();
        }
        assertThatThrownBy(() -> pool.execute(() -> {})).isInstanceOf(RejectedExecutionException.class);
        assertThat(rejected("test.abort"))
                .as("shutting down is not a bound reached")
                .isEqualTo(1);
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    private static void holdTheOnlyThread(ThreadPoolExecutor pool, CountDownLatch hold) throws InterruptedException {
        CountDownLatch held = new CountDownLatch(1);
        pool.execute(() -> {
            held.countDown();
            try {
                hold.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
    }

    private double gauge(String name, String pool) {
        return meters.get(name).tag("name", pool).gauge().value();
    }

    private double rejected(String pool) {
        return meters.get("agora.executor.rejected").tag("name", pool).counter().count();
    }
}
