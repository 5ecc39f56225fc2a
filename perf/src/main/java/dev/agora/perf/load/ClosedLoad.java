package dev.agora.perf.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The seeds' model: N clients, each sending K requests one after the other, every request waiting for
 * the previous answer. Clients are platform threads started together behind a latch.
 */
public final class ClosedLoad {

    /** One iteration of one client: make the calls through the recorder so they are timed. */
    @FunctionalInterface
    public interface Workload {
        void iterate(int client, int iteration, Recorder recorder) throws Exception;
    }

    private ClosedLoad() {}

    public static LoadResult run(int clients, int iterationsPerClient, Workload workload) {
        return run(clients, iterationsPerClient, workload, null);
    }

    /** Runs the load; with a label and enough iterations, shows a progress bar on the console. */
    public static LoadResult run(int clients, int iterationsPerClient, Workload workload, String progressLabel) {
        if (clients < 1 || iterationsPerClient < 0) {
            throw new IllegalArgumentException("clients must be >= 1, iterations >= 0");
        }
        long origin = System.nanoTime();
        List<Recorder> recorders = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (Progress progress = Progress.of(progressLabel, (long) clients * iterationsPerClient)) {
            for (int client = 0; client < clients; client++) {
                Recorder recorder = new Recorder(client, origin);
                recorders.add(recorder);
                int clientIndex = client;
                threads.add(Thread.ofPlatform().name("load-client-" + client).start(() -> {
                    try {
                        start.await();
                        for (int i = 0; i < iterationsPerClient && failure.get() == null; i++) {
                            workload.iterate(clientIndex, i, recorder);
                            progress.step();
                        }
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                    }
                }));
            }
            long begin = System.nanoTime();
            start.countDown();
            for (Thread thread : threads) join(thread);
            Duration wall = Duration.ofNanos(System.nanoTime() - begin);
            if (failure.get() != null) throw new IllegalStateException("workload failed", failure.get());
            return LoadResult.merge(recorders, wall);
        }
    }

    private static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for load clients", e);
        }
    }
}
