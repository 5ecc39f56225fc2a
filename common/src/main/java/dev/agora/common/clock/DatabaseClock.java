package dev.agora.common.clock;

import dev.agora.common.limits.BoundedExecutors;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;

/**
 * Measures this instance's clock against PostgreSQL's ({@code clock_timestamp()}), the cluster's reference, every
 * {@code agora.clock.interval} on a thread of its own: one query per period, nothing on request paths. The latest
 * measurement is read by the readiness check ({@link ClockHealthIndicator}) and the {@code agora.clock.offset}
 * gauge.
 */
public final class DatabaseClock implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(DatabaseClock.class);

    /**
     * The latest outcome: a measurement, a failure after it, or nothing yet. {@code lastNanos} is when the last
     * measurement was taken on {@link System#nanoTime()}, which, unlike the clock being measured, never jumps.
     */
    public record Reading(ClockOffset last, long lastNanos, String lastFailure, Instant attemptedAt) {
        static final Reading NONE = new Reading(null, 0, null, null);

        /** How long ago the last measurement was taken. */
        public Duration age() {
            return Duration.ofNanos(System.nanoTime() - lastNanos);
        }
    }

    private final ObjectProvider<DataSource> databases;
    private volatile DataSource database;
    private final Clock local;
    private final ClockProperties properties;
    private volatile Reading reading = Reading.NONE;
    private volatile boolean wasOff;
    private final ObjectProvider<MeterRegistry> meters;
    private ScheduledThreadPoolExecutor measuring;

    public DatabaseClock(
            ObjectProvider<DataSource> databases,
            Clock local,
            ClockProperties properties,
            ObjectProvider<MeterRegistry> meters) {
        this.databases = databases;
        this.local = local;
        this.properties = properties;
        this.meters = meters;
    }

    public Reading reading() {
        return reading;
    }

    /** Takes one measurement now; the scheduled ones call this once started. */
    public Reading measure() {
        DataSource database = this.database;
        Instant attempted = local.instant();
        try (Connection connection = database.getConnection();
                PreparedStatement query = connection.prepareStatement("SELECT clock_timestamp()")) {
            Instant before = local.instant();
            Instant databaseTime;
            try (ResultSet row = query.executeQuery()) {
                row.next();
                databaseTime = row.getObject(1, OffsetDateTime.class).toInstant();
            }
            Instant after = local.instant();
            ClockOffset offset = ClockOffset.of(before, databaseTime, after);
            reading = new Reading(offset, System.nanoTime(), null, after);
            logChange(offset);
        } catch (SQLException | RuntimeException e) {
            reading = new Reading(reading.last(), reading.lastNanos(), e.getMessage(), attempted);
            log.debug("Could not read the database's clock: {}", e.getMessage());
        }
        return reading;
    }

    /** Once per change, not every period: a clock that is off is news, and so is its recovery. */
    private void logChange(ClockOffset offset) {
        boolean off = offset.exceeds(properties.maxOffset());
        if (off && !wasOff) {
            log.warn(
                    "This instance's clock is {}; maximum {} ms: reporting not ready until it is back",
                    offset.describe(),
                    properties.maxOffset().toMillis());
        } else if (!off && wasOff) {
            log.info(
                    "This instance's clock is back within {} ms of the database's",
                    properties.maxOffset().toMillis());
        }
        wasOff = off;
    }

    /** A reading older than this says nothing about the clock now. */
    Duration staleAfter() {
        return properties.interval().multipliedBy(3);
    }

    @Override
    public synchronized void start() {
        if (measuring != null) return;
        database = databases.getIfAvailable();
        if (database == null) return;
        // One thread and one periodic task: its queue never holds more than that task.
        measuring = new ScheduledThreadPoolExecutor(
                1, Thread.ofPlatform().name("agora-clock").daemon().factory());
        meters.ifAvailable(registry -> BoundedExecutors.monitor(registry, measuring, "agora.clock"));
        measuring.scheduleWithFixedDelay(this::measure, 0, properties.interval().toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (measuring == null) return;
        measuring.shutdownNow();
        measuring = null;
    }

    @Override
    public synchronized boolean isRunning() {
        return measuring != null;
    }

    /** Whether there is a database to measure against (known once started). */
    public boolean hasDatabase() {
        return database != null;
    }

    /** Starts after the web server (phase {@code DEFAULT_PHASE - 1024}), stops before the database pool closes. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 1;
    }
}
