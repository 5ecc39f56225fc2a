package dev.agora.exchange.store.leader;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetAddress;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One instance's part in an election for one role: a thread that, as a candidate, looks every {@code pollEvery}
 * whether the lease is free and takes it, and, as the leader, renews it every {@code renewEvery}. The leadership is
 * lost when a renewal finds that another instance took the lease, when no renewal succeeded for a whole {@code ttl}
 * (measured on this process's monotonic clock from the moment the last successful renewal was sent, which is never
 * later than the database's view), or when a fenced write of this instance was refused ({@link #deposed}); then the
 * thread goes back to being a candidate.
 *
 * <p>{@link #isLeader()} is what work checks before it starts: it turns false as soon as the lease may have run out,
 * also for a process that was frozen and has just been thawed, before any renewal ran. What guarantees that a deposed
 * leader changes nothing is the fence in its write transactions ({@link LeaderLease#fence}); this is the early stop.
 *
 * <p>The data source must hand out real sessions (not pooled ones): the lease is freed at once when the renewing
 * session is gone, which a pool would keep alive.
 */
public final class Leadership implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Leadership.class);

    /** Told on the leadership's thread when this instance wins or loses the lease. */
    public interface Listener {
        default void elected(long epoch) {}

        default void revoked(long epoch, String why) {}
    }

    private final DataSource dataSource;
    private final LeaseSettings settings;
    private final LeaderLease lease;
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private final Object monitor = new Object();
    /** The epoch held; 0 while a candidate. Written under {@link #monitor}. */
    private volatile long epoch;
    /** {@link System#nanoTime()} until which the held lease is surely still this instance's. */
    private volatile long validUntil;

    private volatile boolean running;
    private volatile long elections;
    private Thread thread;
    private Connection connection;

    public Leadership(DataSource dataSource, LeaseSettings settings, String holder) {
        this.dataSource = dataSource;
        this.settings = settings;
        this.lease = new LeaderLease(settings.name(), holder, settings.ttl());
    }

    /** A holder name that tells instances apart in the lease row and in logs: role, host, pid, a random suffix. */
    public static String holderName(String role) {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            host = "unknown-host";
        }
        return role + "@" + host + ":" + ProcessHandle.current().pid() + ":"
                + UUID.randomUUID().toString().substring(0, 8);
    }

    public void addListener(Listener listener) {
        listeners.add(listener);
    }

    public String name() {
        return settings.name();
    }

    public String holder() {
        return lease.holder();
    }

    public LeaseSettings settings() {
        return settings;
    }

    public synchronized void start() {
        if (thread != null) return;
        running = true;
        thread = Thread.ofPlatform()
                .name("leader-" + settings.name())
                .daemon(true)
                .start(this::run);
    }

    /** This instance holds the lease and may still be sure of it. */
    public boolean isLeader() {
        return epoch != 0 && System.nanoTime() - validUntil < 0;
    }

    /** The epoch held (the fencing token of this instance's writes); 0 when not the leader. */
    public long epoch() {
        return isLeader() ? epoch : 0;
    }

    /** Times this instance took the lease. */
    public long elections() {
        return elections;
    }

    /**
     * Blocks until this instance leads (or {@code keepWaiting} says stop, checked every poll interval).
     *
     * @return the epoch held, or 0 when told to stop
     */
    public long awaitLeadership(BooleanSupplier keepWaiting) throws InterruptedException {
        synchronized (monitor) {
            while (keepWaiting.getAsBoolean()) {
                long held = epoch();
                if (held != 0) return held;
                monitor.wait(Math.max(1, settings.pollEvery().toMillis()));
            }
            return 0;
        }
    }

    /**
     * A write fenced at {@code epoch} was refused, or its outcome is unknown: stop leading at that epoch now instead of
     * at the next renewal. As a candidate again, this instance may take the lease back at once (it is still its own),
     * at a new epoch. Harmless when the leadership already moved on.
     */
    public void deposed(long deposedEpoch, String why) {
        revoke(deposedEpoch, why);
    }

    private void revoke(long lostEpoch, String why) {
        synchronized (monitor) {
            if (lostEpoch == 0 || epoch != lostEpoch) return;
            epoch = 0;
            monitor.notifyAll();
        }
        log.warn("Leadership '{}' at epoch {} lost: {}", settings.name(), lostEpoch, why);
        for (Listener listener : listeners) {
            try {
                listener.revoked(lostEpoch, why);
            } catch (RuntimeException e) {
                log.error("A leadership listener failed on revocation", e);
            }
        }
    }

    private void elect(long newEpoch, long sentAt) {
        synchronized (monitor) {
            validUntil = sentAt + settings.ttl().toNanos();
            epoch = newEpoch;
            elections++;
            monitor.notifyAll();
        }
        log.info("Leadership '{}' taken at epoch {} by {}", settings.name(), newEpoch, lease.holder());
        for (Listener listener : listeners) {
            try {
                listener.elected(newEpoch);
            } catch (RuntimeException e) {
                log.error("A leadership listener failed on election", e);
            }
        }
    }

    private void run() {
        boolean announcedStandby = false;
        while (running) {
            long held = epoch;
            long pause = held == 0
                    ? settings.pollEvery().toMillis()
                    : settings.renewEvery().toMillis();
            try {
                Connection session = session();
                long sentAt = System.nanoTime();
                if (held == 0) {
                    OptionalLong taken = lease.tryTake(session);
                    if (taken.isPresent()) {
                        elect(taken.getAsLong(), sentAt);
                        announcedStandby = false;
                        pause = settings.renewEvery().toMillis();
                    } else if (!announcedStandby) {
                        log.info("Leadership '{}' is held by another instance: standing by", settings.name());
                        announcedStandby = true;
                    }
                } else if (lease.renew(session, held)) {
                    synchronized (monitor) {
                        if (epoch == held) validUntil = sentAt + settings.ttl().toNanos();
                    }
                } else {
                    revoke(held, "another instance took the lease over");
                }
            } catch (SQLException | RuntimeException e) {
                closeSession();
                if (held != 0 && System.nanoTime() - validUntil >= 0) {
                    revoke(held, "the lease could not be renewed in time (" + e.getMessage() + ")");
                } else {
                    log.debug("Leadership '{}': the database did not answer", settings.name(), e);
                }
            }
            if (epoch != 0 && System.nanoTime() - validUntil >= 0) {
                // Not renewed for a whole lease (this process was frozen, or the database is slow): the lease may
                // be someone else's already. The next renewal tells; until then isLeader() is false.
                pause = 0;
            }
            sleep(pause);
        }
        long held = epoch;
        if (held != 0) {
            synchronized (monitor) {
                epoch = 0;
                monitor.notifyAll();
            }
            try {
                lease.release(session(), held);
                log.info("Leadership '{}' at epoch {} released", settings.name(), held);
            } catch (SQLException | RuntimeException e) {
                log.debug("Releasing leadership '{}' failed; it expires by itself", settings.name(), e);
            }
        }
        closeSession();
    }

    private Connection session() throws SQLException {
        if (connection == null) {
            Connection fresh = dataSource.getConnection();
            try {
                fresh.setAutoCommit(true);
                long bound = Math.max(1000, 2 * settings.ttl().toMillis());
                // A database that stops answering must not hold this thread past the lease it is meant to keep.
                fresh.setNetworkTimeout(Runnable::run, (int) bound);
                try (var statement = fresh.createStatement()) {
                    statement.execute("SET statement_timeout = " + bound);
                    statement.execute("SET application_name = 'leader-" + settings.name() + "'");
                }
            } catch (SQLException | RuntimeException e) {
                fresh.close();
                throw e;
            }
            connection = fresh;
        }
        return connection;
    }

    private void closeSession() {
        if (connection == null) return;
        try {
            connection.close();
        } catch (SQLException e) {
            log.debug("Closing the leadership session failed", e);
        }
        connection = null;
    }

    private void sleep(long millis) {
        if (millis <= 0) return;
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
        } catch (InterruptedException e) {
            if (!running) return;
            Thread.currentThread().interrupt();
        }
    }

    /** {@code agora.leader} (1 while leading), {@code agora.leader.epoch} and {@code agora.leader.elections}. */
    public void registerMetrics(MeterRegistry meters) {
        Gauge.builder("agora.leader", this, l -> l.isLeader() ? 1 : 0)
                .tag("lease", settings.name())
                .description("1 while this instance holds the lease, 0 otherwise")
                .register(meters);
        Gauge.builder("agora.leader.epoch", this, l -> l.epoch)
                .tag("lease", settings.name())
                .description("The epoch (fencing token) this instance holds; 0 while a candidate")
                .register(meters);
        Gauge.builder("agora.leader.elections", this, Leadership::elections)
                .tag("lease", settings.name())
                .description("Times this instance took the lease")
                .register(meters);
    }

    /** Stops campaigning; a held lease is released so that a candidate takes over without waiting for it. */
    @Override
    public void close() {
        Thread worker;
        synchronized (this) {
            running = false;
            worker = thread;
        }
        if (worker == null) return;
        worker.interrupt();
        try {
            worker.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
