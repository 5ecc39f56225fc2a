package dev.agora.launcher.cluster;

import dev.agora.launcher.credentials.Credentials;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** The human-readable view of a running cluster. */
final class ClusterTable {

    private ClusterTable() {}

    /**
     * What is running and how to use it: the instances, then a tour (web pages, a lookup, a token and a buy with
     * {@code curl}, the exchange, PostgreSQL, fault injection), each line a command that works as printed.
     */
    static void printTour(Cluster cluster, int controlPort, Duration sinceCommand, PrintStream out) {
        out.println();
        printInstances(cluster, out);
        StartupTimes times = cluster.startupTimes();
        out.println();
        out.printf(
                "Agora is ready, %s after the command (PostgreSQL %s, jars%s %s, slowest instance %s, frontends"
                        + " reaching every tier %s).%n",
                seconds(sinceCommand),
                seconds(times.postgres()),
                cluster.spec().aotCache() ? " + AOT" : "",
                seconds(times.preparation()),
                seconds(times.instances().values().stream()
                        .max(Duration::compareTo)
                        .orElse(Duration.ZERO)),
                seconds(times.serving()));
        out.println();
        if (cluster.spec().frontends() > 0) {
            String frontend = cluster.urls("frontend").getFirst();
            if (cluster.spec().catalogs() > 0) {
                out.println("  Look up a book:   curl -s " + frontend + "/api/books/1");
            }
            printCredentials(cluster, out);
            if (cluster.spec().orders() > 0) {
                out.println(
                        "  Buy it:           TOKEN=$(" + tokenCommand(cluster.credentialsFile(), cluster.credentials())
                                + " | sed 's/.*\"access_token\":\"\\([^\"]*\\)\".*/\\1/')");
                out.println("                    curl -s -XPOST " + frontend + "/api/orders -H \"Authorization: Bearer"
                        + " $TOKEN\" -H 'Content-Type: application/json' -d '{\"bookId\":1,\"quantity\":1}'");
            }
        }
        if (cluster.spec().exchange()) {
            out.printf("  Exchange XML:     127.0.0.1:%d%n", cluster.exchangeTcpPort());
            if (cluster.spec().exchangeStandby()) {
                out.printf(
                        "                    exchange-2 stands by; it listens on 127.0.0.1:%d once it has taken over"
                                + " (clients try the other port when one refuses)%n",
                        cluster.spec().exchangeTcpPort(2));
            }
        }
        out.printf(
                "  PostgreSQL:       jdbc:postgresql://127.0.0.1:%d/{catalog,orders,exchange,identity} (superuser %s;"
                        + " each service logs in as the role named like its database, which owns it)%n",
                cluster.postgresPort(), cluster.username());
        Path data = cluster.spec().dataDirectory();
        String offset = cluster.spec().portOffset() == 0
                ? ""
                : " --port-offset " + cluster.spec().portOffset();
        out.printf(
                "  Break it:         ./agora ctl kill %s%s%s   (freeze, thaw, restart, status; or type 'kill %s'"
                        + " here)%n",
                victim(cluster),
                offset,
                data.equals(Path.of("data").toAbsolutePath()) ? "" : " --data-dir " + shellQuoted(data.toString()),
                victim(cluster));
        out.printf(
                "  Control endpoint: http://127.0.0.1:%d/instances with Authorization: Bearer <%s>%n",
                controlPort, data.resolve(ControlToken.FILE_NAME));
        out.printf("  Logs:             %s%n", data.resolve("logs"));
    }

    /** The instance the tour suggests breaking: the last catalog, whose peers (if any) take over, else the last. */
    private static String victim(Cluster cluster) {
        List<Instance> instances = cluster.instances();
        return instances.stream()
                .filter(instance -> instance.service().equals("catalog"))
                .reduce((first, second) -> second)
                .orElse(instances.getLast())
                .name();
    }

    /**
     * Where the demo users' clients are, and the one command that gets a token: it reads the secret from the file
     * rather than printing it, so the launcher's output (often kept in a log) holds no secret.
     */
    static void printCredentials(Cluster cluster, PrintStream out) {
        Path file = cluster.credentialsFile();
        Credentials credentials = cluster.credentials();
        out.printf("  Demo users:       %s (admin, trader, customer; passwords also for publisher)%n", file);
        out.printf(
                "  Web pages:        %s/ (sign in as <user> with <user>.password from that file)%n",
                cluster.urls("frontend").getFirst());
        out.println("  Customer token:   " + tokenCommand(file, credentials));
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
