package dev.agora.frontend.book;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices when the whole process stood still (SIGSTOP, a very long GC pause): catalog replicas push
 * invalidations with a short deadline and do not retry later, so a frontend that was frozen may have
 * missed some, and its cache is emptied when it runs again.
 */
final class PauseWatch implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PauseWatch.class);
    private static final long TICK_MILLIS = 100;

    private final BookCache cache;
    private final long thresholdNanos;
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("pause-watch").daemon().factory());
    private long lastTick = System.nanoTime();

    PauseWatch(BookCache cache, Duration threshold) {
        this.cache = cache;
        this.thresholdNanos = threshold.toNanos();
    }

    PauseWatch start() {
        ticker.scheduleAtFixedRate(this::tick, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
        return this;
    }

    private void tick() {
        long now = System.nanoTime();
        long gap = now - lastTick;
        lastTick = now;
        if (gap > thresholdNanos) {
            cache.clear();
            log.warn(
                    "Process stood still for {} ms; emptied the cache, invalidations may have been missed",
                    gap / 1_000_000);
        }
    }

    @Override
    public void close() {
        ticker.shutdownNow();
    }
}
