package dev.agora.perf.experiment;

import dev.agora.launcher.credentials.AccessTokens;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** A running cluster as experiments see it: where its instances are, and how to hurt them. */
public interface Target {

    ClusterShape shape();

    /** Base URLs of "frontend", "catalog", "order" or "exchange" replicas, in index order. */
    List<String> urls(String service);

    /** Instance names of a service in index order, e.g. "catalog-1", "catalog-2". */
    List<String> instanceNames(String service);

    String url(String instanceName);

    /** Current pid of an instance, -1 when it is not running or unknown. */
    long pid(String instanceName);

    int exchangeTcpPort();

    /** The XML ports of every exchange instance in index order (only the active one listens). */
    default List<Integer> exchangeTcpPorts() {
        return List.of(exchangeTcpPort());
    }

    /** A superuser login to one of the cluster's databases, for checks against the source of truth; empty if none. */
    default java.util.Optional<DatabaseLogin> database(String name) {
        return java.util.Optional.empty();
    }

    /** Where and as whom to connect to a database. */
    record DatabaseLogin(String jdbcUrl, String username, String password) {}

    /** The demo users' tokens (SECURITY.md) for calls that need one: buys, restocks, direct orders. */
    AccessTokens tokens();

    /** Whether this target lets experiments kill and restart its processes. */
    boolean controllable();

    void kill(String instanceName);

    void freeze(String instanceName);

    void thaw(String instanceName);

    /** Kills (when alive) and starts again; returns the time from start to ready. */
    Duration restart(String instanceName);

    /**
     * The cluster's PostgreSQL (its maintenance database, never a service's), for floors measured beside a run;
     * empty for a reused cluster.
     */
    default Optional<Floors.Database> database() {
        return Optional.empty();
    }

    /** How long bringing the cluster up took, for the report (zero when reused). */
    Duration startupTime();
}
