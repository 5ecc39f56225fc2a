package dev.agora.launcher.cluster;

import dev.agora.local.process.TestAotCaches;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One launched cluster (every tier, the exchange with its standby) for all the whole-cluster test classes of this
 * test run, instead of one per class: a start is most of such a class's time on two cores. A class gets it as a
 * parameter of its {@code @BeforeAll} ({@code @ExtendWith(SharedCluster.Resolver.class)}); instances an earlier class
 * left killed or frozen are restarted or thawed first, so every class starts from a whole cluster. The cluster stops
 * once every test class has run (JUnit closes the root store), and its logs are kept like a test's own cluster's.
 */
final class SharedCluster implements AutoCloseable {

    private static final Duration SERVING_TIMEOUT = Duration.ofSeconds(90);

    private final Path dataDirectory;
    private final ClusterSpec spec;
    private Cluster cluster;

    private SharedCluster() {
        try {
            dataDirectory = Files.createTempDirectory("agora-cluster-tests-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        spec = ClusterSpec.defaults()
                // Start-up is most of this cluster's CPU, and its tests are about behaviour, not peak speed:
                // fast-start JVMs whatever the launcher's default is.
                .withJvmOptions(ClusterSpec.FAST_START_JVM_OPTIONS)
                // -Dagora.test.aot-cache=false: no cache at all, rather than one trained in this directory.
                .withAotCache(TestAotCaches.enabled())
                .withDataDirectory(dataDirectory)
                .withFresh(true)
                .withPostgresPort(0)
                // Below the kernel's ephemeral range (32768 and up), clear of perf's clusters.
                .withFreePortOffset(List.of(17_000, 16_000, 15_000, 14_000, 13_000, 18_000, 19_000));
        cluster = Cluster.start(spec);
        report(cluster);
    }

    /**
     * The start's CPU per instance on the test output: unlike wall-clock time it hardly depends on what else the
     * machine runs, so runs of the suite (with and without AOT caches, say) compare by it.
     */
    private static void report(Cluster started) {
        StartupTimes times = started.startupTimes();
        Duration cpu = times.instanceCpu().values().stream().reduce(Duration.ZERO, Duration::plus);
        System.out.println("[cluster-tests] started in " + times.total().toMillis() + " ms; instances' CPU until ready "
                + cpu.toMillis() + " ms: " + new TreeMap<>(times.instanceCpu()));
    }

    Cluster cluster() {
        return cluster;
    }

    ClusterSpec spec() {
        return spec;
    }

    Path dataDirectory() {
        return dataDirectory;
    }

    /** Stops the whole cluster and starts it again on the same data directory; the cluster that runs now. */
    synchronized Cluster restartWholeCluster() {
        cluster.close();
        cluster = Cluster.start(spec.withFresh(false));
        report(cluster);
        return cluster;
    }

    /**
     * Thaws what an earlier class left frozen and restarts what it left dead, all at once, then waits, as a start
     * does, until every frontend reaches every tier: instances that sat idle through an earlier class (the exchange
     * pair through the failover tests) answer their first calls again before a class times them.
     */
    private synchronized SharedCluster whole() {
        List<String> names = cluster.instances().stream().map(Instance::name).toList();
        for (String name : names) {
            if (cluster.isFrozen(name)) cluster.thaw(name);
        }
        List<String> down =
                names.stream().filter(name -> !cluster.isRunning(name)).toList();
        if (!down.isEmpty()) Cluster.inParallel(down, cluster::restart);
        new ServingCheck().await(cluster.urls("frontend"), spec, cluster.credentials(), SERVING_TIMEOUT);
        return this;
    }

    @Override
    public synchronized void close() {
        cluster.close();
        ClusterLogs.keep(dataDirectory, "cluster-tests");
        Cluster.deleteRecursively(dataDirectory);
    }

    /** Resolves a {@link SharedCluster} parameter: started on first use, made whole again for every later class. */
    static final class Resolver implements ParameterResolver {

        private static final ExtensionContext.Namespace NAMESPACE =
                ExtensionContext.Namespace.create(SharedCluster.class);

        @Override
        public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
            return parameter.getParameter().getType() == SharedCluster.class;
        }

        @Override
        public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
            return context.getRoot()
                    .getStore(NAMESPACE)
                    .computeIfAbsent(SharedCluster.class, key -> new SharedCluster(), SharedCluster.class)
                    .whole();
        }
    }
}
