package dev.agora.perf.cluster;

import java.io.PrintStream;
import java.time.Duration;

/** The human-readable view of a running cluster. */
final class ClusterTable {

    private ClusterTable() {}

    static void print(Cluster cluster, int controlPort, PrintStream out) {
        printInstances(cluster, out);
        StartupTimes times = cluster.startupTimes();
        out.printf(
                "Cluster ready in %s (PostgreSQL %s, jars%s %s, slowest instance %s, frontends reaching every tier %s)%n",
                seconds(times.total()),
                seconds(times.postgres()),
                cluster.spec().aotCache() ? " + AOT" : "",
                seconds(times.preparation()),
                seconds(times.instances().values().stream()
                        .max(Duration::compareTo)
                        .orElse(Duration.ZERO)),
                seconds(times.serving()));
        if (cluster.spec().exchange()) {
            out.printf("Exchange XML protocol: 127.0.0.1:%d%n", cluster.exchangeTcpPort());
        }
        out.printf(
                "PostgreSQL: jdbc:postgresql://127.0.0.1:%d/{catalog,orders,exchange} (user %s)%n",
                cluster.postgresPort(), cluster.username());
        out.printf(
                "Control: http://127.0.0.1:%d/instances  (agora-perf ctl --control-port %d ...)%n",
                controlPort, controlPort);
    }

    static void printInstances(Cluster cluster, PrintStream out) {
        String format = "%-12s %-24s %8s %9s %9s %-8s %s%n";
        out.printf(format, "INSTANCE", "URL", "PID", "READY", "CPU", "STATE", "LOG");
        for (Instance instance : cluster.instances()) {
            Duration ready = cluster.startupTimes().instances().get(instance.name());
            Duration cpu = cluster.startupTimes().instanceCpu().get(instance.name());
            String state = instance.pid() < 0 ? "down" : cluster.isFrozen(instance.name()) ? "frozen" : "up";
            out.printf(
                    format,
                    instance.name(),
                    instance.url(),
                    instance.pid(),
                    ready == null ? "-" : seconds(ready),
                    cpu == null ? "-" : seconds(cpu),
                    state,
                    instance.log());
        }
    }

    private static String seconds(Duration duration) {
        return String.format("%.1f s", duration.toMillis() / 1000.0);
    }
}
