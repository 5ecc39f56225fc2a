package dev.agora.launcher.cluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import sun.misc.Signal;

@Command(
        name = "agora",
        mixinStandardHelpOptions = true,
        subcommands = CtlCommand.class,
        description = {
            "Starts the whole Agora cluster (embedded PostgreSQL + every service instance as its own process)"
                    + " and keeps it running until Ctrl-C, SIGTERM or 'quit'.",
            "Faults can be injected while it runs: type 'kill catalog-2' (or freeze, thaw, restart, status),"
                    + " or run 'agora ctl kill catalog-2' from another terminal.",
            "Every service runs in the 'local' profile. The demo users admin, trader and customer get OAuth2 clients"
                    + " with random secrets in <data-dir>/demo-credentials.properties (kept until --fresh); a token:"
                    + " POST <token-url> with HTTP Basic <client-id>:<client-secret> and grant_type=client_credentials."
        })
public final class ClusterCommand implements Callable<Integer> {

    @Option(
            names = "--fresh",
            description = "Wipe the data directory's state first (database, logs, files, demo credentials); the"
                    + " extracted jars and AOT caches of this build stay.")
    boolean fresh;

    @Option(names = "--data-dir", defaultValue = "data", description = "Where state lives (default: ${DEFAULT-VALUE}).")
    Path dataDirectory;

    @Option(names = "--frontends", defaultValue = "2", description = "Frontend replicas (default: ${DEFAULT-VALUE}).")
    int frontends;

    @Option(names = "--catalogs", defaultValue = "2", description = "Catalog replicas (default: ${DEFAULT-VALUE}).")
    int catalogs;

    @Option(names = "--orders", defaultValue = "2", description = "Order replicas (default: ${DEFAULT-VALUE}).")
    int orders;

    @Option(names = "--no-exchange", description = "Do not start the exchange.")
    boolean noExchange;

    @Option(
            names = "--no-exchange-standby",
            description = "Start the exchange without its standby (exchange-2, which takes over within a second when"
                    + " exchange-1 is killed or frozen).")
    boolean noExchangeStandby;

    @Option(
            names = "--port-offset",
            defaultValue = "0",
            description = "Added to every port, to run beside another cluster (default: ${DEFAULT-VALUE}).")
    int portOffset;

    @Option(
            names = "--postgres-port",
            defaultValue = "5432",
            description = "Embedded PostgreSQL port, 0 for any free one (default: ${DEFAULT-VALUE}).")
    int postgresPort;

    @Option(
            names = "--aot",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description = "Run each service from a JDK 25 AOT cache trained on its own start and requests, once per"
                    + " build (skipped below JDK 25). --no-aot runs without (default: on).")
    boolean aot;

    @Option(
            names = "--jvm",
            defaultValue = "throughput",
            description = "JVM options: throughput (full tiered JIT, G1) or fast-start (C1 only, Serial GC: ready"
                    + " with less CPU, slower for good) (default: ${DEFAULT-VALUE}).")
    String jvm;

    @Option(
            names = "--otlp",
            paramLabel = "URL",
            description = "Send every instance's traces to this OTLP/HTTP endpoint, every request sampled, e.g."
                    + " http://127.0.0.1:4318/v1/traces (default: off).")
    String otlp;

    @Option(
            names = {"-e", "--env"},
            paramLabel = "TARGET:KEY=VALUE",
            description = "Extra environment for a tier, an instance or all, e.g. frontend:AGORA_CACHE_ENABLED=false,"
                    + " catalog-2:DATABASE_POOL_SIZE=4, all:SPRING_THREADS_VIRTUAL_ENABLED=true. Repeatable.")
    List<String> environment = new ArrayList<>();

    @Option(names = "--exit-when-ready", description = "Stop again as soon as everything is ready (measures start-up).")
    boolean exitWhenReady;

    @Override
    public Integer call() throws IOException, InterruptedException {
        // The embedded PostgreSQL echoes every server log line; its own log file keeps them.
        System.setProperty("org.slf4j.simpleLogger.log.io.zonky.test.db.postgres", "warn");
        ClusterSpec spec = spec();
        PrintStream out = System.out;
        out.printf(
                "Starting %d frontend, %d catalog, %d order%s in %s (%s JVMs%s) ...%n",
                spec.frontends(),
                spec.catalogs(),
                spec.orders(),
                spec.exchange() ? (spec.exchangeStandby() ? ", 1 exchange with a standby" : ", 1 exchange") : "",
                spec.dataDirectory(),
                jvm,
                spec.aotCache() && AotCache.supported() ? ", AOT caches on" : "");
        long started = System.nanoTime();
        Cluster cluster;
        try (ProgressView progress = ProgressView.forConsole()) {
            cluster = Cluster.start(spec, progress, Cluster.AotTraining.AFTER_READY);
        }
        // A new credential per start, written before anything listens (SECURITY.md): ctl and perf read it.
        String token = ControlToken.create(spec.dataDirectory());
        ControlServer control = ControlServer.start(cluster, spec.controlPort(), token);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            control.close();
                            cluster.close();
                            stopped.countDown();
                        },
                        "agora-cluster-command-stop"));
        // Exit 0 on Ctrl-C and SIGTERM: stopping the cluster is the normal way to end this command.
        for (String signal : List.of("INT", "TERM")) {
            Signal.handle(new Signal(signal), ignored -> System.exit(0));
        }
        ClusterTable.printTour(cluster, control.port(), Duration.ofNanos(System.nanoTime() - started), out);
        if (cluster.isTraining()) {
            out.println(
                    "  AOT caches:       being trained in the background at a low CPU priority, for the next start ("
                            + spec.dataDirectory().resolve("aot") + ")");
            Thread.ofPlatform().daemon().name("aot-training-watch").start(() -> {
                try {
                    cluster.awaitTraining(Duration.ofDays(1));
                    if (!cluster.isTraining()) {
                        out.println("AOT training done: the next start runs from the caches it made (a tier without"
                                + " one has its reason in "
                                + spec.dataDirectory().resolve("aot") + "/<tier>/training.log)");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        if (exitWhenReady) {
            // Otherwise the caches would never be made by starts that end at once.
            if (cluster.isTraining()) out.println("Waiting for the AOT training to end before stopping ...");
            cluster.awaitTraining(Duration.ofMinutes(30));
            control.close();
            cluster.close();
            return 0;
        }
        out.println("Type 'help' for commands; Ctrl-C stops the cluster.");
        readCommands(cluster, out);
        // stdin closed (e.g. started in the background): keep running until a signal arrives.
        stopped.await();
        return 0;
    }

    private void readCommands(Cluster cluster, PrintStream out) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            String[] words = line.trim().split("\\s+");
            if (words[0].isEmpty()) continue;
            try {
                switch (words[0]) {
                    case "quit", "exit", "stop" -> System.exit(0);
                    case "status", "ls" -> ClusterTable.printInstances(cluster, out);
                    case "kill", "freeze", "thaw", "restart" -> {
                        if (words.length != 2) {
                            out.println("usage: " + words[0] + " <instance>, e.g. " + words[0] + " catalog-2");
                            continue;
                        }
                        apply(cluster, words[0], words[1], out);
                    }
                    default ->
                        out.println("commands: status | kill <instance> | freeze <instance> | thaw <instance> |"
                                + " restart <instance> | quit");
                }
            } catch (RuntimeException e) {
                out.println("error: " + e.getMessage());
            }
        }
    }

    private static void apply(Cluster cluster, String action, String instance, PrintStream out) {
        switch (action) {
            case "kill" -> cluster.kill(instance);
            case "freeze" -> cluster.freeze(instance);
            case "thaw" -> cluster.thaw(instance);
            default -> {
                Duration ready = cluster.restart(instance);
                out.printf("%s ready after %.1f s%n", instance, ready.toMillis() / 1000.0);
                return;
            }
        }
        out.println(action + " " + instance + ": done");
    }

    private List<String> jvmOptions() {
        return switch (jvm) {
            case "fast-start" -> ClusterSpec.FAST_START_JVM_OPTIONS;
            case "throughput" -> ClusterSpec.THROUGHPUT_JVM_OPTIONS;
            default -> throw new IllegalArgumentException("--jvm is fast-start or throughput, not " + jvm);
        };
    }

    ClusterSpec spec() {
        ClusterSpec spec = ClusterSpec.defaults()
                .withDataDirectory(dataDirectory)
                .withFresh(fresh)
                .withFrontends(frontends)
                .withCatalogs(catalogs)
                .withOrders(orders)
                .withExchange(!noExchange)
                .withExchangeStandby(!noExchangeStandby)
                .withPortOffset(portOffset)
                .withPostgresPort(postgresPort)
                .withAotCache(aot)
                .withJvmOptions(jvmOptions());
        if (otlp != null) {
            for (var variable : OtlpExport.environment(otlp).entrySet()) {
                spec = spec.withEnvironment(ClusterSpec.ALL_SERVICES, variable.getKey(), variable.getValue());
            }
        }
        for (String entry : environment) {
            int colon = entry.indexOf(':');
            int equals = entry.indexOf('=', colon + 1);
            if (colon < 1 || equals < colon + 2) {
                throw new IllegalArgumentException("--env wants TARGET:KEY=VALUE, got " + entry);
            }
            spec = spec.withEnvironment(
                    entry.substring(0, colon), entry.substring(colon + 1, equals), entry.substring(equals + 1));
        }
        return spec;
    }
}
