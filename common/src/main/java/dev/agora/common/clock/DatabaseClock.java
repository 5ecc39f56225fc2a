package dev.agora.common.clock;

import dev.agora.common.limits.BoundedExecutors;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
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
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.SmartLifecycle;

/**
 * Measures this instance's clock against PostgreSQL's ({@code clock_timestamp()}) every {@code agora.clock.interval} on
 * a thread of its own, nothing on request paths; the {@code agora.clock.offset} gauge and the {@code clock} health
 * check read the latest measurement (common/README.md, "One clock"). The check is UNKNOWN, which leaves readiness to
 * the other checks, before the first measurement, without a database, and when none succeeded for three intervals:
 * the database's own troubles are not the clock's.
 */
public final class DatabaseClock implements SmartLifecycle, HealthIndicator, MeterBinder {

    private static final Logger log = LoggerFactory.getLogger(DatabaseClock.class);

    private final ObjectProvider<DataSource> databases;
    private final Clock local;
    private final ClockProperties properties;
    private final ObjectProvider<MeterRegistry> meters;
    private volatile DataSource database;
    private volatile ClockOffset last;
    /** When {@link #last} was taken, on {@link System#nanoTime()}: unlike the clock being measured, it never jumps. */
    private volatile long lastNanos;

    private volatile String lastFailure;
    private boolean wasOff;
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

    /** NTP's sign: negative while this clock is ahead; NaN before a reading. */
    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("agora.clock.offset", this, clock -> clock.last == null ? Double.NaN : clock.last.offsetSeconds())
                .baseUnit("seconds")
                .description("The database's clock minus this instance's, as last measured")
                .register(registry);
    }

    private void measure() {
        try (var connection = database.getConnection();
                var query = connection.prepareStatement("SELECT clock_timestamp()")) {
            Instant before = local.instant();
            Instant databaseTime;
            try (var row = query.executeQuery()) {
                row.next();
                databaseTime = row.getObject(1, OffsetDateTime.class).toInstant();
            }
            ClockOffset offset = ClockOffset.of(before, databaseTime, local.instant());
            last = offset;
            lastNanos = System.nanoTime();
            lastFailure = null;
            logChange(offset);
        } catch (SQLException | RuntimeException e) {
            lastFailure = e.getMessage();
            log.debug("Could not read the database's clock: {}", e.getMessage());
        }
    }

    /** Once per change, not every period: a clock that is off is news, and so is its recovery. */
    private void logChange(ClockOffset offset) {
        boolean off = offset.exceeds(ClockProperties.MAX_OFFSET);
        if (off && !wasOff) {
            log.warn(
                    "This instance's clock is {}; maximum {} ms: reporting not ready until it is back",
                    offset.describe(),
                    ClockProperties.MAX_OFFSET.toMillis());
        } else if (!off && wasOff) {
            log.info(
                    "This instance's clock is back within {} ms of the database's",
                    ClockProperties.MAX_OFFSET.toMillis());
        }
        wasOff = off;
    }

    @Override
    public Health health() {
        if (database == null) return unknown("no database to compare the clock with");
        ClockOffset offset = last;
        if (offset == null) return unknown("not measured yet");
        Duration age = Duration.ofNanos(System.nanoTime() - lastNanos);
        if (age.compareTo(properties.interval().multipliedBy(3)) > 0) {
            return unknown("no measurement for " + age.toSeconds() + " s");
        }
        Duration max = ClockProperties.MAX_OFFSET;
        Health.Builder health = offset.exceeds(max)
                ? Health.down()
                        .withDetail("reason", "clock is " + offset.describe() + "; maximum " + max.toMillis() + " ms")
                : Health.up();
        return health.withDetail("offsetSeconds", offset.offsetSeconds())
                .withDetail("roundTripSeconds", offset.roundTrip().toNanos() / 1e9)
                .withDetail("maxOffsetSeconds", max.toNanos() / 1e9)
                .withDetail("measuredAt", offset.measuredAt().toString())
                .build();
    }

    private Health unknown(String reason) {
        Health.Builder unknown = Health.unknown().withDetail("reason", reason);
        if (lastFailure != null) unknown.withDetail("lastFailure", lastFailure);
        return unknown.build();
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

    /** Starts after the web server (phase {@code DEFAULT_PHASE - 1024}), stops before the database pool closes. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 1;
    }
}
