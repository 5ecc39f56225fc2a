package dev.agora.common.limits;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ExecutorServiceMetrics;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * Makes a thread pool's bounds visible: Micrometer's {@link ExecutorServiceMetrics} ({@code executor_active_threads},
 * {@code executor_pool_max_threads}, {@code executor_queued_tasks}, {@code executor_queue_remaining_tasks}, ... tagged
 * {@code name}), and two of ours with the same tag: {@code agora.executor.queue.capacity} (the queue's bound; not for a
 * scheduled pool, whose delay queue has none and is bounded by the tasks its owner schedules) and
 * {@code agora.executor.rejected} (tasks the full pool handed to its rejection policy, which Micrometer's binder does
 * not count: its {@code TimedExecutorService} only times what ran). The policy itself is kept: it is only wrapped to
 * count first, so a pool that runs an overflowing task on the caller's thread still does.
 */
public final class BoundedExecutors {

    private BoundedExecutors() {}

    /** Publishes {@code executor}'s metrics under {@code name} and counts its rejections; returns it. */
    public static <E extends ThreadPoolExecutor> E monitor(MeterRegistry meters, E executor, String name) {
        ExecutorServiceMetrics.monitor(meters, executor, name);
        Counter rejected = Counter.builder("agora.executor.rejected")
                .description("Tasks a full pool refused (or ran on the caller's thread, as its policy says)")
                .tag("name", name)
                .register(meters);
        var policy = executor.getRejectedExecutionHandler();
        executor.setRejectedExecutionHandler((task, pool) -> {
            // A pool shut down with the context refuses everything: that is not a bound being reached.
            if (!pool.isShutdown()) rejected.increment();
            policy.rejectedExecution(task, pool);
        });
        if (!(executor instanceof ScheduledThreadPoolExecutor)) {
            Gauge.builder(
                            "agora.executor.queue.capacity",
                            executor,
                            pool -> pool.getQueue().size() + pool.getQueue().remainingCapacity())
                    .description("Tasks the pool's queue holds at most")
                    .tag("name", name)
                    .register(meters);
        }
        return executor;
    }
}
