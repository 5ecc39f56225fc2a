package dev.agora.perf.experiment.partitions;

import dev.agora.launcher.cluster.Cluster;
import dev.agora.launcher.cluster.ClusterSpec;
import dev.agora.launcher.cluster.NetworkLinks;
import dev.agora.launcher.credentials.AccessTokens;
import dev.agora.launcher.toxiproxy.ToxiproxyServer;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A cluster whose every link runs through Toxiproxy (launcher's {@link NetworkLinks}): Toxiproxy's server, the
 * cluster, and the demo users' tokens, stopped together.
 */
public final class LinkedCluster implements AutoCloseable {

    private final ToxiproxyServer toxiproxy;
    private final NetworkLinks links;
    private final Cluster cluster;
    private final AccessTokens tokens;
    private final SteppedClock clock;

    private LinkedCluster(ToxiproxyServer toxiproxy, NetworkLinks links, Cluster cluster, SteppedClock clock) {
        this.toxiproxy = toxiproxy;
        this.links = links;
        this.cluster = cluster;
        this.clock = clock;
        this.tokens = new AccessTokens(cluster.credentials());
    }

    /**
     * Starts Toxiproxy, logging to {@code toxiproxyLog} (outside the data directory, which the cluster wipes), then
     * the cluster with its links through it.
     */
    public static LinkedCluster start(ClusterSpec spec, Path toxiproxyLog) {
        return start(spec, toxiproxyLog, Optional.empty());
    }

    /** Like {@link #start(ClusterSpec, Path)}, with one instance's clock steppable ({@link SteppedClock}). */
    static LinkedCluster start(ClusterSpec spec, Path toxiproxyLog, Optional<SteppedClock> clock) {
        ToxiproxyServer toxiproxy = ToxiproxyServer.start(toxiproxyLog);
        try {
            NetworkLinks links = new NetworkLinks(toxiproxy.api());
            ClusterSpec started = clock.map(c -> c.applyTo(spec)).orElse(spec);
            return new LinkedCluster(toxiproxy, links, Cluster.start(started, links), clock.orElse(null));
        } catch (RuntimeException e) {
            toxiproxy.close();
            throw e;
        }
    }

    public Cluster cluster() {
        return cluster;
    }

    public NetworkLinks links() {
        return links;
    }

    public AccessTokens tokens() {
        return tokens;
    }

    /** The instance whose clock the nemesis may step, when libfaketime was found. */
    Optional<SteppedClock> clock() {
        return Optional.ofNullable(clock);
    }

    @Override
    public void close() {
        try {
            tokens.close();
            cluster.close();
        } finally {
            toxiproxy.close();
        }
    }
}
