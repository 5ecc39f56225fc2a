package dev.agora.perf.experiment;

import dev.agora.launcher.cluster.Cluster;
import dev.agora.launcher.cluster.Instance;
import dev.agora.launcher.credentials.AccessTokens;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** A cluster this run started itself through the launcher, and closes again. */
final class LaunchedTarget implements Target, AutoCloseable {

    private final ClusterShape shape;
    private final Cluster cluster;
    private final AccessTokens tokens;

    LaunchedTarget(ClusterShape shape, Cluster cluster) {
        this.shape = shape;
        this.cluster = cluster;
        this.tokens = new AccessTokens(cluster.credentials());
    }

    @Override
    public ClusterShape shape() {
        return shape;
    }

    /** Whether its services run from AOT caches (a start that failed with them was retried without). */
    boolean fromAotCaches() {
        return cluster.spec().aotCache();
    }

    @Override
    public List<String> urls(String service) {
        return cluster.urls(service);
    }

    @Override
    public List<String> instanceNames(String service) {
        return cluster.instances().stream()
                .filter(instance -> instance.service().equals(service))
                .map(Instance::name)
                .toList();
    }

    @Override
    public String url(String instanceName) {
        return instance(instanceName).url();
    }

    @Override
    public long pid(String instanceName) {
        return instance(instanceName).pid();
    }

    @Override
    public int exchangeTcpPort() {
        return cluster.exchangeTcpPort();
    }

    @Override
    public List<Integer> exchangeTcpPorts() {
        return cluster.exchangeTcpPorts();
    }

    @Override
    public java.util.Optional<DatabaseLogin> database(String name) {
        return java.util.Optional.of(new DatabaseLogin(cluster.jdbcUrl(name), cluster.username(), cluster.password()));
    }

    @Override
    public AccessTokens tokens() {
        return tokens;
    }

    @Override
    public boolean controllable() {
        return true;
    }

    @Override
    public void kill(String instanceName) {
        cluster.kill(instanceName);
    }

    @Override
    public void freeze(String instanceName) {
        cluster.freeze(instanceName);
    }

    @Override
    public void thaw(String instanceName) {
        cluster.thaw(instanceName);
    }

    @Override
    public Duration restart(String instanceName) {
        return cluster.restart(instanceName);
    }

    @Override
    public Optional<Floors.Database> database() {
        return Optional.of(new Floors.Database(cluster.jdbcUrl("postgres"), cluster.username(), cluster.password()));
    }

    @Override
    public Duration startupTime() {
        return cluster.startupTimes().total();
    }

    @Override
    public void close() {
        try {
            cluster.close();
        } finally {
            tokens.close();
        }
    }

    private Instance instance(String name) {
        return cluster.instances().stream()
                .filter(instance -> instance.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no instance " + name));
    }
}
