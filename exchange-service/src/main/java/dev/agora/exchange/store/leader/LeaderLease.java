package dev.agora.exchange.store.leader;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The statements of a lease on one row of {@code leader_lease} (schema: migration V7). Plain JDBC on a connection the
 * caller owns, in auto-commit.
 *
 * <p>Time is the database's ({@code clock_timestamp()}), so the instances' clocks never decide who leads. Every
 * takeover increments the row's {@code epoch}: the fencing token. A leader's write runs {@link #FENCE} in its own
 * transaction; the function locks the row ({@code FOR KEY SHARE}) and fails unless the epoch is still the writer's.
 * A takeover changes {@code epoch}, a column of a unique key, so it needs the row's strongest lock and waits until
 * every fenced write in flight has committed or failed: whatever a successor loads after taking over includes every
 * write its predecessor committed, and no write of the predecessor commits afterwards. A renewal changes no key
 * column and never waits for writes.
 */
public final class LeaderLease {

    /** One statement in a leader's write transaction: fails with SQLSTATE {@value #FENCED_STATE} when deposed. */
    public static final String FENCE = "SELECT leader_fence(?, ?)";

    /** The SQLSTATE of a write refused because another instance took the lease over. */
    public static final String FENCED_STATE = "AGLF1";

    private static final String CREATE = "INSERT INTO leader_lease (name, holder, epoch, expires_at)"
            + " VALUES (?, '', 0, '-infinity') ON CONFLICT (name) DO NOTHING";

    /**
     * Free when expired, when it is this holder's own (taking it again after a broken connection), or when the
     * holder's renewing session is gone from the server: a killed process's sessions end with it, so a standby takes
     * over at its next look instead of waiting out the lease.
     */
    private static final String TAKE =
            """
            UPDATE leader_lease
               SET holder = ?, epoch = epoch + 1, holder_backend = pg_backend_pid(),
                   acquired_at = clock_timestamp(), expires_at = clock_timestamp() + make_interval(secs => ?)
             WHERE name = ?
               AND (holder = ? OR expires_at < clock_timestamp()
                    OR NOT EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid = leader_lease.holder_backend))
            RETURNING epoch""";

    private static final String RENEW =
            """
            UPDATE leader_lease
               SET expires_at = clock_timestamp() + make_interval(secs => ?), holder_backend = pg_backend_pid()
             WHERE name = ? AND epoch = ? AND holder = ?""";

    private static final String RELEASE =
            "UPDATE leader_lease SET expires_at = '-infinity' WHERE name = ? AND epoch = ? AND holder = ?";

    private static final String READ =
            "SELECT holder, epoch, expires_at > clock_timestamp() FROM leader_lease WHERE name = ?";

    /** Who holds a lease, as the database sees it now. */
    public record Holder(String holder, long epoch, boolean live) {}

    private final String name;
    private final String holder;
    private final double ttlSeconds;

    public LeaderLease(String name, String holder, Duration ttl) {
        this.name = name;
        this.holder = holder;
        this.ttlSeconds = ttl.toNanos() / 1e9;
    }

    public String name() {
        return name;
    }

    public String holder() {
        return holder;
    }

    /** Takes the lease when it is free (creating its row on first use); its new epoch, or empty when held. */
    public OptionalLong tryTake(Connection connection) throws SQLException {
        try (PreparedStatement create = connection.prepareStatement(CREATE)) {
            create.setString(1, name);
            create.executeUpdate();
        }
        try (PreparedStatement take = connection.prepareStatement(TAKE)) {
            take.setString(1, holder);
            take.setDouble(2, ttlSeconds);
            take.setString(3, name);
            take.setString(4, holder);
            try (ResultSet row = take.executeQuery()) {
                return row.next() ? OptionalLong.of(row.getLong(1)) : OptionalLong.empty();
            }
        }
    }

    /** Extends the lease held at {@code epoch}; false when another instance has taken it since. */
    public boolean renew(Connection connection, long epoch) throws SQLException {
        try (PreparedStatement renew = connection.prepareStatement(RENEW)) {
            renew.setDouble(1, ttlSeconds);
            renew.setString(2, name);
            renew.setLong(3, epoch);
            renew.setString(4, holder);
            return renew.executeUpdate() == 1;
        }
    }

    /** Ends the lease held at {@code epoch} now, so that a candidate need not wait for it to expire. */
    public void release(Connection connection, long epoch) throws SQLException {
        try (PreparedStatement release = connection.prepareStatement(RELEASE)) {
            release.setString(1, name);
            release.setLong(2, epoch);
            release.setString(3, holder);
            release.executeUpdate();
        }
    }

    public Optional<Holder> read(Connection connection) throws SQLException {
        try (PreparedStatement read = connection.prepareStatement(READ)) {
            read.setString(1, name);
            try (ResultSet row = read.executeQuery()) {
                return row.next()
                        ? Optional.of(new Holder(row.getString(1), row.getLong(2), row.getBoolean(3)))
                        : Optional.empty();
            }
        }
    }

    /**
     * Runs the fence in the caller's transaction: fails with {@link Fenced} unless {@code epoch} is still current.
     * Call it as the last statement before the commit (the row lock it takes is held until then).
     */
    public static void fence(Connection connection, String name, long epoch) throws SQLException {
        try (PreparedStatement fence = connection.prepareStatement(FENCE)) {
            fence.setString(1, name);
            fence.setLong(2, epoch);
            fence.executeQuery().close();
        } catch (SQLException e) {
            if (isFenced(e)) throw new Fenced(name, epoch, e);
            throw e;
        }
    }

    /** Whether a failure (or one of its causes) is the fence refusing a deposed leader's write. */
    public static boolean isFenced(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof Fenced) return true;
            if (cause instanceof SQLException sql && FENCED_STATE.equals(sql.getSQLState())) return true;
        }
        return false;
    }

    /** A write refused because the lease has passed to another instance: this instance is no longer the leader. */
    public static final class Fenced extends SQLException {
        public Fenced(String name, long epoch, SQLException cause) {
            super(
                    "leadership '" + name + "' at epoch " + epoch + " has passed to another instance",
                    FENCED_STATE,
                    cause);
        }
    }
}
