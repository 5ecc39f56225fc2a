package dev.agora.frontend.failover;

import dev.agora.frontend.cluster.Http;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/** A bounded closed-loop load of lookups through one frontend, remembering every request's outcome. */
final class LookupLoad implements AutoCloseable {

    record Sample(long startedNanos, long durationNanos, int status, String body) {}

    private final ConcurrentLinkedQueue<Sample> samples = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final ExecutorService threads;
    private final List<Future<?>> clients = new ArrayList<>();
    private final long deadline;

    /** Runs {@code clients} loops until {@link #stop()} or {@code maxSeconds}, whichever comes first. */
    LookupLoad(Http http, String frontend, int clientCount, int maxSeconds) {
        this.deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(maxSeconds);
        this.threads = Executors.newFixedThreadPool(clientCount);
        for (int c = 0; c < clientCount; c++) {
            int first = c;
            clients.add(threads.submit(() -> {
                int book = first;
                while (running.get() && System.nanoTime() < deadline) {
                    long started = System.nanoTime();
                    int status;
                    String body;
                    try {
                        Http.Response response = http.get(frontend + "/api/books/" + (book++ % 7 + 1));
                        status = response.status();
                        body = response.body();
                    } catch (RuntimeException e) {
                        status = -1;
                        body = e.toString();
                    }
                    samples.add(new Sample(started, System.nanoTime() - started, status, body));
                }
            }));
        }
    }

    List<Sample> stop() throws Exception {
        running.set(false);
        for (Future<?> client : clients) client.get(30, TimeUnit.SECONDS);
        return List.copyOf(samples);
    }

    List<Sample> samplesSoFar() {
        return List.copyOf(samples);
    }

    @Override
    public void close() {
        running.set(false);
        threads.shutdownNow();
    }
}
