package dev.agora.perf.compare;

import dev.agora.launcher.cluster.ControlClient;
import dev.agora.launcher.cluster.Instance;
import dev.agora.local.process.ProcessFigures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A cluster started by a tree's own launcher ({@code <tree>/launcher/target/agora.jar}; in trees from before the
 * launcher module, {@code <tree>/perf/target/agora-perf.jar cluster}) as a child process, in that tree (its launcher finds its service jars there) with its state in a directory of ours. Ready
 * when the launcher's control endpoint answers (it opens only after every instance is ready). Closing stops the
 * launcher (SIGTERM: it stops its services and PostgreSQL) and then kills whatever of it is still alive.
 */
public final class LaunchedCluster implements AutoCloseable {

    private static final int CONTROL_BASE_PORT = 8390;
    private static final Duration STOP_GRACE = Duration.ofSeconds(60);

    private final Side side;
    private final Path tree;
    private final Path dataDirectory;
    private final Path launcherLog;
    private final int portOffset;
    private final Process launcher;
    /** Handles, not pids: a handle knows its process's start time, so it never kills a later process given that pid. */
    private final Set<ProcessHandle> seen = new LinkedHashSet<>();

    private List<Instance> instances = List.of();
    private long postmasterPid = -1;

    private LaunchedCluster(
            Side side, Path tree, Path dataDirectory, Path launcherLog, int portOffset, Process launcher) {
        this.side = side;
        this.tree = tree;
        this.dataDirectory = dataDirectory;
        this.launcherLog = launcherLog;
        this.portOffset = portOffset;
        this.launcher = launcher;
    }

    /** The launcher's jar in a tree: the launcher module's, else (older trees) perf's. */
    public static Path launcherJar(Path tree) {
        Path launcher = tree.resolve("launcher/target/agora.jar");
        return Files.isRegularFile(launcher) || !Files.isRegularFile(perfLauncherJar(tree))
                ? launcher
                : perfLauncherJar(tree);
    }

    /** Where trees from before the launcher module have their launcher, as the {@code cluster} command of perf. */
    private static Path perfLauncherJar(Path tree) {
        return tree.resolve("perf/target/agora-perf.jar");
    }

    /** Perf's launcher wants its {@code cluster} command named; the launcher module's jar is that command. */
    private static List<String> forJar(Path jar, List<String> arguments) {
        boolean perfJar = jar.getFileName().toString().equals("agora-perf.jar");
        if (perfJar || arguments.isEmpty() || !arguments.getFirst().equals("cluster")) return arguments;
        return arguments.subList(1, arguments.size());
    }

    /** The launcher's arguments: the same shape for both trees, with only flags every launcher since 5ebaaab knows. */
    static List<String> clusterArguments(
            Path dataDirectory, int portOffset, int frontends, int catalogs, int orders, boolean cache) {
        List<String> arguments = new ArrayList<>(List.of(
                "cluster",
                "--fresh",
                "--data-dir",
                dataDirectory.toString(),
                "--port-offset",
                Integer.toString(portOffset),
                "--postgres-port",
                "0",
                "--jvm",
                "throughput",
                "--frontends",
                Integer.toString(frontends),
                "--catalogs",
                Integer.toString(catalogs),
                "--orders",
                Integer.toString(orders),
                "--no-exchange"));
        if (!cache) {
            for (String entry : List.of(
                    "frontend:AGORA_CACHE_ENABLED=false",
                    "frontend:AGORA_INVALIDATION_ENABLED=false",
                    "catalog:AGORA_INVALIDATION_ENABLED=false")) {
                arguments.add("-e");
                arguments.add(entry);
            }
        }
        return arguments;
    }

    /** The flags of {@link #clusterArguments} that a tree's {@code cluster --help} does not list. */
    static List<String> unknownFlags(String help, List<String> arguments) {
        return arguments.stream()
                .filter(argument -> argument.startsWith("--"))
                .filter(flag -> !help.contains(flag))
                .toList();
    }

    /**
     * Starts the tree's launcher and returns at once: the caller holds the cluster, to close it, before {@link
     * #awaitReady} (a Ctrl-C during a start must stop it too).
     */
    public static LaunchedCluster launch(
            Side side, Path tree, Path workDirectory, int portOffset, List<String> arguments)
            throws IOException, InterruptedException {
        return launch(side, tree, workDirectory, portOffset, arguments, false);
    }

    /**
     * As {@link #launch(Side, Path, Path, int, List)}; with {@code launcherDefaults} the launcher's own AOT default
     * stays (a start-up measurement measures the command as people run it).
     */
    static LaunchedCluster launch(
            Side side, Path tree, Path workDirectory, int portOffset, List<String> arguments, boolean launcherDefaults)
            throws IOException, InterruptedException {
        Path jar = launcherJar(tree);
        if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException(jar + " is missing (and for trees from before the launcher module,"
                    + " perf/target/agora-perf.jar is missing too): build that tree first (./mvnw -o -q -DskipTests"
                    + " package in " + tree + ")");
        }
        arguments = forJar(jar, arguments);
        List<String> helpCommand = new ArrayList<>(List.of(java(), "-jar", jar.toString()));
        helpCommand.addAll(forJar(jar, List.of("cluster", "--help")));
        String help = run(helpCommand, tree);
        if (!launcherDefaults && help.contains("--[no-]aot")) {
            // A launcher whose AOT caches are on by default trains them in the background after a start without
            // one: work beside the measured requests that the other side does not do. Both sides run without.
            arguments = new ArrayList<>(arguments);
            arguments.add("--no-aot");
        }
        List<String> unknown = unknownFlags(help, arguments);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("The launcher of " + tree + " does not know " + unknown);
        }
        int controlPort = CONTROL_BASE_PORT + portOffset;
        if (answers(controlPort)) {
            throw new IllegalStateException("Something already listens on 127.0.0.1:" + controlPort + " (a cluster at"
                    + " port offset " + portOffset + "?): choose other offsets");
        }
        Path dataDirectory = workDirectory.resolve(side.label()).toAbsolutePath();
        Path launcherLog = workDirectory.resolve(side.label() + "-launcher.log").toAbsolutePath();
        Files.createDirectories(workDirectory);
        List<String> command = new ArrayList<>(List.of(java(), "-jar", jar.toString()));
        command.addAll(arguments);
        Process process = new ProcessBuilder(command)
                .directory(tree.toFile())
                .redirectErrorStream(true)
                .redirectOutput(launcherLog.toFile())
                .start();
        return new LaunchedCluster(side, tree, dataDirectory, launcherLog, portOffset, process);
    }

    /** Waits until the launcher's control endpoint answers, and learns the instances' and PostgreSQL's pids. */
    public void awaitReady(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            // Read each time: the launcher writes its control token only once the cluster is up (older ones none).
            ControlClient control = ControlClient.of(dataDirectory, portOffset);
            remember();
            if (!launcher.isAlive()) {
                throw new IllegalStateException(side.label() + " cluster's launcher exited with " + launcher.exitValue()
                        + " before it was ready; its output ends:\n" + tail());
            }
            try {
                instances = control.instances();
                break;
            } catch (ControlClient.ControlException notYet) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(side.label() + " cluster not ready after " + timeout
                            + "; its launcher's output ends:\n" + tail());
                }
                Thread.sleep(1_000);
            }
        }
        postmasterPid = readPostmasterPid();
        remember();
    }

    /**
     * The postmaster's pid: the first line of PostgreSQL's own {@code postmaster.pid} in the data directory, when
     * that process runs on this data directory (a file left by an earlier run may name a pid reused since).
     */
    private long readPostmasterPid() {
        Path postgres = dataDirectory.resolve("postgres");
        Path pidFile = postgres.resolve("postmaster.pid");
        long pid;
        try {
            pid = Long.parseLong(Files.readAllLines(pidFile).getFirst().strip());
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("No PostgreSQL pid in " + pidFile + " (" + e + ")");
        }
        if (!ProcessFigures.commandLine(pid).contains(postgres.toString())) {
            throw new IllegalStateException("PostgreSQL of " + pidFile + " (pid " + pid + ") is not running");
        }
        return pid;
    }

    /** Every process the launcher started so far, so that closing can kill what survives it. */
    private void remember() {
        if (postmasterPid < 0 && Files.isRegularFile(dataDirectory.resolve("postgres/postmaster.pid"))) {
            try {
                ProcessHandle.of(readPostmasterPid()).ifPresent(seen::add); // a start stopped half-way leaves none
            } catch (IllegalStateException halfWritten) {
                // read again at the next look
            }
        }
        launcher.descendants().forEach(seen::add);
        instances.forEach(instance -> ProcessHandle.of(instance.pid()).ifPresent(seen::add));
        if (postmasterPid > 0) ProcessHandle.of(postmasterPid).ifPresent(seen::add);
    }

    public Side side() {
        return side;
    }

    public Path tree() {
        return tree;
    }

    public Path dataDirectory() {
        return dataDirectory;
    }

    /** Whether the launcher's output so far holds the text (e.g. that its background AOT training is done). */
    boolean launcherSaid(String text) {
        try {
            return Files.isRegularFile(launcherLog)
                    && Files.readString(launcherLog).contains(text);
        } catch (IOException e) {
            return false;
        }
    }

    public Path credentialsFile() {
        return dataDirectory.resolve("demo-credentials.properties");
    }

    public List<String> urls(String service) {
        return instances.stream()
                .filter(instance -> instance.service().equals(service))
                .map(Instance::url)
                .toList();
    }

    /** CPU ticks so far of each tier: its instances' JVMs, and the postmaster with its backends. */
    public Map<CpuTier, Long> cpuTicks() {
        Map<CpuTier, Long> ticks = new EnumMap<>(CpuTier.class);
        for (Instance instance : instances) {
            CpuTier tier = CpuTier.ofService(instance.service());
            if (tier == null) continue;
            long own = ProcessFigures.cpuTicks(instance.pid(), true);
            if (own < 0)
                throw new IllegalStateException(instance.name() + " of the " + side.label() + " cluster is gone");
            ticks.merge(tier, own, Long::sum);
        }
        long postgres = ProcessFigures.treeCpuTicks(postmasterPid);
        if (postgres < 0) throw new IllegalStateException("PostgreSQL of the " + side.label() + " cluster is gone");
        ticks.put(CpuTier.POSTGRES, postgres);
        return ticks;
    }

    /** CPU ticks so far of the JIT compiler threads of every instance's JVM (part of {@link #cpuTicks()}). */
    public long compilerTicks() {
        long ticks = 0;
        for (Instance instance : instances) {
            if (CpuTier.ofService(instance.service()) == null) continue;
            long own = ProcessFigures.compilerCpuTicks(instance.pid());
            if (own < 0)
                throw new IllegalStateException(instance.name() + " of the " + side.label() + " cluster is gone");
            ticks += own;
        }
        return ticks;
    }

    /** CPU milliseconds of each tier since {@code before} (a reading of {@link #cpuTicks()}). */
    public Map<CpuTier, Double> cpuMillisSince(Map<CpuTier, Long> before) {
        Map<CpuTier, Double> millis = new EnumMap<>(CpuTier.class);
        cpuTicks()
                .forEach((tier, ticks) -> millis.put(
                        tier, (ticks - before.getOrDefault(tier, ticks)) * ProcessFigures.NANOS_PER_TICK / 1e6));
        return millis;
    }

    /** "1 frontend, 1 catalog, 1 order": what is running. */
    public String shape() {
        Map<String, Long> counts = new java.util.TreeMap<>();
        instances.forEach(instance -> counts.merge(instance.service(), 1L, Long::sum));
        return counts.toString();
    }

    @Override
    public void close() {
        remember();
        launcher.destroy(); // SIGTERM: the launcher's shutdown hook stops its instances and PostgreSQL
        try {
            if (!launcher.waitFor(STOP_GRACE.toSeconds(), TimeUnit.SECONDS)) launcher.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            launcher.destroyForcibly();
        }
        for (ProcessHandle process : seen) {
            if (process.isAlive()) process.destroyForcibly();
        }
    }

    private String tail() {
        try {
            List<String> lines = Files.readAllLines(launcherLog, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(no output: " + e + ")";
        }
    }

    private static boolean answers(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    /** Runs a short command and returns its output (e.g. {@code cluster --help}, {@code git rev-parse}). */
    static String run(List<String> command, Path directory) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectErrorStream(true)
                .start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(60, TimeUnit.SECONDS)) process.destroyForcibly();
        return new String(output, StandardCharsets.UTF_8);
    }
}
