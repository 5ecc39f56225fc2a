package dev.agora.launcher.cluster;

import dev.agora.local.cluster.FreePorts;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * What {@link Cluster#start(ClusterSpec)} launches: how many replicas of each tier, where state lives, which ports,
 * and extra environment per service for experiments (e.g. {@code AGORA_CACHE_ENABLED=false} for "frontend").
 *
 * @param dataDirectory PostgreSQL data, logs, jar snapshots and AOT caches; kept across runs unless {@code fresh}
 * @param fresh wipe {@code dataDirectory} before starting
 * @param exchangeStandby a second exchange instance that stands by (live, not ready) while the first is active
 * @param portOffset added to every well-known port (8080.., 8180.., 8280.., 8380, 12345, control 8390)
 * @param postgresPort port of the embedded PostgreSQL, 0 for any free one
 * @param environmentByService extra environment keyed by tier ("frontend", "catalog", "order", "exchange"), by
 *     instance name ("catalog-2", applied after the tier's) or "all" (applied first)
 * @param jvmOptions options of every service JVM
 * @param aotCache run each service from a JDK 25 AOT cache, trained once per jar version (ignored below JDK 25)
 */
public record ClusterSpec(
        Path dataDirectory,
        boolean fresh,
        int frontends,
        int catalogs,
        int orders,
        boolean exchange,
        boolean exchangeStandby,
        int portOffset,
        int postgresPort,
        Map<String, Map<String, String>> environmentByService,
        List<String> jvmOptions,
        boolean aotCache) {

    /**
     * The heap on transparent huge pages (the kernel's {@code madvise} mode is enough). A SIGKILLed JVM keeps its
     * sockets open until the kernel has unmapped its memory (Linux tears down a process's memory before it closes
     * its files), and callers' requests wait on it meanwhile; freeing the heap as 2 MB pages instead of 4 KB ones
     * shortened that window from 112 to 59 ms and from 250 / 67 / 48 ms to 70 / 59 / 29 ms in paired runs of one
     * catalog JVM on the loaded 2-core box (perf/reports/failover.md), with no change in lookup latency. A smaller
     * heap, Serial or Parallel GC, fewer compiler threads or a smaller code cache did not shorten it measurably.
     */
    private static final String HEAP_ON_HUGE_PAGES = "-XX:+UseTransparentHugePages";

    /**
     * As in the containers: a JVM out of heap exits instead of serving on with whichever threads died of it (an
     * exchange whose committer died that way accepted requests and answered none until they timed out).
     */
    private static final String EXIT_ON_OUT_OF_MEMORY = "-XX:+ExitOnOutOfMemoryError";

    /**
     * Favour start-up: C1 only (a service is ready in about half the CPU time; peak speed is lower), Serial GC (no
     * GC threads competing on a small machine running seven JVMs), small thread stacks. Class-data sharing is on by
     * default.
     */
    public static final List<String> FAST_START_JVM_OPTIONS = List.of(
            "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC",
            "-Xss512k",
            "-Xmx512m",
            HEAP_ON_HUGE_PAGES,
            EXIT_ON_OUT_OF_MEMORY);

    /** Favour steady-state speed for throughput experiments: full tiered compilation, the default G1 collector. */
    public static final List<String> THROUGHPUT_JVM_OPTIONS =
            List.of("-Xmx1g", HEAP_ON_HUGE_PAGES, EXIT_ON_OUT_OF_MEMORY);

    public static final String ALL_SERVICES = "all";

    public ClusterSpec {
        if (frontends < 0 || catalogs < 0 || orders < 0) throw new IllegalArgumentException("negative replica count");
        if (portOffset < 0 || portOffset + 12345 > 65535) throw new IllegalArgumentException("bad port offset");
        if (postgresPort < 0 || postgresPort > 65535) throw new IllegalArgumentException("bad PostgreSQL port");
        dataDirectory = dataDirectory.toAbsolutePath().normalize();
        Map<String, Map<String, String>> copy = new LinkedHashMap<>();
        environmentByService.forEach((service, values) -> copy.put(service, Map.copyOf(values)));
        environmentByService = Map.copyOf(copy);
        jvmOptions = List.copyOf(jvmOptions);
    }

    /**
     * ./data, not fresh, 2 frontends, 2 catalogs, 2 orders, an exchange with a standby, the well-known ports,
     * fast-start JVMs.
     */
    public static ClusterSpec defaults() {
        return new ClusterSpec(
                Path.of("data"), false, 2, 2, 2, true, true, 0, 5432, Map.of(), FAST_START_JVM_OPTIONS, false);
    }

    public ClusterSpec withDataDirectory(Path directory) {
        return change(b -> b.dataDirectory = directory);
    }

    public ClusterSpec withFresh(boolean wipe) {
        return change(b -> b.fresh = wipe);
    }

    public ClusterSpec withFrontends(int count) {
        return change(b -> b.frontends = count);
    }

    public ClusterSpec withCatalogs(int count) {
        return change(b -> b.catalogs = count);
    }

    public ClusterSpec withOrders(int count) {
        return change(b -> b.orders = count);
    }

    public ClusterSpec withExchange(boolean enabled) {
        return change(b -> b.exchange = enabled);
    }

    /** A second exchange instance that stands by and takes over when the active one dies or freezes. */
    public ClusterSpec withExchangeStandby(boolean enabled) {
        return change(b -> b.exchangeStandby = enabled);
    }

    public ClusterSpec withPortOffset(int offset) {
        return change(b -> b.portOffset = offset);
    }

    public ClusterSpec withPostgresPort(int port) {
        return change(b -> b.postgresPort = port);
    }

    /** Adds one environment variable for a tier ("catalog"), one instance ("catalog-2") or "all". */
    public ClusterSpec withEnvironment(String service, String key, String value) {
        return change(b -> {
            Map<String, String> values = new LinkedHashMap<>(b.environmentByService.getOrDefault(service, Map.of()));
            values.put(key, value);
            b.environmentByService.put(service, values);
        });
    }

    public ClusterSpec withJvmOptions(List<String> options) {
        return change(b -> b.jvmOptions = options);
    }

    public ClusterSpec withAotCache(boolean enabled) {
        return change(b -> b.aotCache = enabled);
    }

    /** A copy with {@code edit} applied to its fields (the canonical constructor validates the result). */
    private ClusterSpec change(Consumer<Fields> edit) {
        Fields fields = new Fields(this);
        edit.accept(fields);
        return fields.spec();
    }

    /** The record's components as mutable fields, so each wither names only what it changes. */
    private static final class Fields {
        Path dataDirectory;
        boolean fresh;
        int frontends;
        int catalogs;
        int orders;
        boolean exchange;
        boolean exchangeStandby;
        int portOffset;
        int postgresPort;
        Map<String, Map<String, String>> environmentByService;
        List<String> jvmOptions;
        boolean aotCache;

        Fields(ClusterSpec spec) {
            dataDirectory = spec.dataDirectory;
            fresh = spec.fresh;
            frontends = spec.frontends;
            catalogs = spec.catalogs;
            orders = spec.orders;
            exchange = spec.exchange;
            exchangeStandby = spec.exchangeStandby;
            portOffset = spec.portOffset;
            postgresPort = spec.postgresPort;
            environmentByService = new LinkedHashMap<>(spec.environmentByService);
            jvmOptions = spec.jvmOptions;
            aotCache = spec.aotCache;
        }

        ClusterSpec spec() {
            return new ClusterSpec(
                    dataDirectory,
                    fresh,
                    frontends,
                    catalogs,
                    orders,
                    exchange,
                    exchangeStandby,
                    portOffset,
                    postgresPort,
                    environmentByService,
                    jvmOptions,
                    aotCache);
        }
    }

    /** Replica count of a tier. */
    int replicas(Tier tier) {
        return switch (tier) {
            case FRONTEND -> frontends;
            case CATALOG -> catalogs;
            case ORDER -> orders;
            case EXCHANGE -> exchange ? (exchangeStandby ? 2 : 1) : 0;
        };
    }

    /**
     * This spec at the first of {@code offsets} whose well-known ports are all free now and that no other JVM on this
     * machine has claimed: test clusters of modules built side by side stay apart, also while one of them restarts
     * and its ports are free for a moment. The claim lasts as long as this JVM.
     */
    public ClusterSpec withFreePortOffset(List<Integer> offsets) {
        for (int offset : offsets) {
            ClusterSpec candidate = withPortOffset(offset);
            if (candidate.portsOfAnyClusterAtOffset().allMatch(FreePorts::isFree)
                    && FreePorts.claim("port-offset-" + offset)) {
                return candidate;
            }
        }
        throw new IllegalStateException("No free port offset among " + offsets);
    }

    /**
     * Every fixed port a cluster at this offset may take, whatever its replica counts (up to four a tier, two exchange
     * instances): an offset claimed for one test cluster stays free of another's.
     */
    private IntStream portsOfAnyClusterAtOffset() {
        return IntStream.concat(
                IntStream.of(exchangeTcpPort(1), exchangeTcpPort(2), controlPort()),
                IntStream.of(8080, 8180, 8280, 8380)
                        .flatMap(base -> IntStream.range(base, base + 4))
                        .map(port -> port + portOffset));
    }

    /** The control endpoint's port: 8390 plus the offset. */
    public int controlPort() {
        return 8390 + portOffset;
    }

    /** The first exchange instance's XML port: 12345 plus the offset. */
    public int exchangeTcpPort() {
        return exchangeTcpPort(1);
    }

    /**
     * The XML port of exchange instance {@code index} (1-based): 12345, 12346, ... plus the offset. Instances on one
     * host cannot share a port: a frozen leader keeps its listening socket open.
     */
    public int exchangeTcpPort(int index) {
        return 12345 + portOffset + index - 1;
    }
}
