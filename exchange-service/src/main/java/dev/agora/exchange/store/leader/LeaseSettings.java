package dev.agora.exchange.store.leader;

import java.time.Duration;
import java.util.Objects;

/**
 * How one leadership is held.
 *
 * @param name the lease's row in {@code leader_lease}; instances competing for the same role use the same name
 * @param ttl how long a lease lasts without renewal, measured by the database's clock; a frozen leader loses its
 *     leadership at most this long after its last renewal
 * @param renewEvery how often the leader renews (several renewals fit into one {@code ttl}, so one slow renewal
 *     does not cost the leadership)
 * @param pollEvery how often a candidate looks whether the lease is free
 */
public record LeaseSettings(String name, Duration ttl, Duration renewEvery, Duration pollEvery) {

    public LeaseSettings {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) throw new IllegalArgumentException("a lease needs a name");
        if (ttl.toMillis() < 10) throw new IllegalArgumentException("ttl below 10 ms: " + ttl);
        if (renewEvery.compareTo(ttl) >= 0) {
            throw new IllegalArgumentException("renewEvery " + renewEvery + " must be shorter than ttl " + ttl);
        }
        if (pollEvery.isNegative() || pollEvery.isZero()) throw new IllegalArgumentException("pollEvery " + pollEvery);
    }

    /** The defaults: a 500 ms lease renewed every 100 ms, candidates looking every 100 ms. */
    public static LeaseSettings of(String name) {
        return new LeaseSettings(name, Duration.ofMillis(500), Duration.ofMillis(100), Duration.ofMillis(100));
    }
}
