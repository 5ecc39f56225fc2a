package dev.agora.perf.cluster;

import dev.agora.perf.load.Credentials;
import java.io.PrintStream;
import java.nio.file.Path;
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
            if (cluster.spec().exchangeStandby()) {
                out.printf(
                        "Exchange standby: exchange-2, XML port 127.0.0.1:%d once it has taken over (only the active"
                                + " instance listens; clients try the other port when one refuses)%n",
                        cluster.spec().exchangeTcpPort(2));
            }
        }
        out.printf(
                "PostgreSQL: jdbc:postgresql://127.0.0.1:%d/{catalog,orders,exchange,identity} (superuser %s; each"
                        + " service logs in as the role named like its database, which owns it)%n",
                cluster.postgresPort(), cluster.username());
        if (cluster.spec().frontends() > 0) printCredentials(cluster, out);
        out.printf(
                "Control: http://127.0.0.1:%d/instances  (agora-perf ctl --control-port %d ...)%n",
                controlPort, controlPort);
    }

    /**
     * Where the demo users' clients are, and the one command that gets a token: it reads the secret from the file
     * rather than printing it, so the launcher's output (often kept in a log) holds no secret.
     */
    static void printCredentials(Cluster cluster, PrintStream out) {
        Path file = cluster.credentialsFile();
        Credentials credentials = cluster.credentials();
        out.printf("Demo credentials (users admin, trader, customer; passwords also for publisher): %s%n", file);
        out.printf(
                "Web pages: %s/ (sign in as <user> with <user>.password from that file)%n",
                cluster.urls("frontend").getFirst());
        out.println("Customer token: " + tokenCommand(file, credentials));
    }

    /** A {@code curl} printing the customer's token response (access_token, 15 minutes). */
    static String tokenCommand(Path file, Credentials credentials) {
        String quoted = shellQuoted(file.toString());
        return "curl -s -u \"" + credentials.customer().id() + ":$(grep ^customer.client-secret= " + quoted
                + " | cut -d= -f2)\" -d grant_type=client_credentials " + credentials.tokenUrl();
    }

    /** Single-quoted for a POSIX shell, so a data directory with spaces still pastes. */
    private static String shellQuoted(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
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
