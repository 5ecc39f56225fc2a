package dev.agora.launcher.cluster;

import dev.agora.local.process.ServiceJars;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A JDK 25 ahead-of-time cache per service (JEP 483/514/515): classes loaded and linked in a training run, and the
 * method profiles it gathered, are mapped from the cache at start-up instead of being read from the jar and learnt
 * again, so a service is ready sooner and its JIT compiles the request path from the first requests on. Here a
 * service trains alone (the bookstore's tiers train together on real buys, {@link BookstoreTraining}): it starts
 * against the cluster's database, sends itself up to {@link #TRAINING_REQUESTS} of its own warm-up requests (its
 * {@code WarmUpRequests} beans), then stops, and the JVM writes the cache as it exits ({@code -XX:AOTCacheOutput}).
 * The exchange, the one service trained this way, has no warm-up requests: its hot path is the XML protocol over
 * TCP, which the self warm-up (HTTP) does not speak, and its JSON API answers nothing without a trader's or an
 * admin's token. So its cache holds its start, and its standby warms the JSON order path in-process instead
 * ({@code StandbyWarmUp}). The cache is only valid for the exact class path it was trained on (the
 * extracted jars of {@link JarSnapshots}), so it is reused while those jars, the JDK and the JVM options stay the
 * same: once per change of the service.
 */
final class AotCache {

    private static final Logger log = LoggerFactory.getLogger(AotCache.class);
    static final Duration TRAINING_TIMEOUT = Duration.ofMinutes(5);

    /**
     * The training workload: start, then this many of the service's own warm-up requests before it reports ready
     * (so that the profiles hold the request path), then exit.
     */
    static final int TRAINING_REQUESTS = 300;

    /** Names that training in the stamp: a cache trained some other way is trained again. */
    static final String SOLO_RECIPE = "start+warm-up-requests:" + TRAINING_REQUESTS;

    /**
     * Compile each method the training compiled as soon as its class is initialized, from the cache's profiles, rather
     * than once it has run often enough again (JDK 25's experimental {@code AOTCompileEagerly}; the cache holds
     * profiles, not code). Without it the first buys of a fresh cluster waited for the JIT, which took most of the
     * CPU they cost; with it those compilations move into the start, which costs a little more CPU (launcher/README,
     * "What bounds a start and the first buys"). Only with a cache, so JDK
     * 21-24, which do not know the option, never see it. {@code -Dagora.aot.compile-eagerly=false} (a JVM option of
     * the launcher) leaves it out, to compare against.
     */
    static final List<String> EAGER_COMPILATION = List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+AOTCompileEagerly");

    private static final boolean COMPILE_EAGERLY = !"false".equals(System.getProperty("agora.aot.compile-eagerly"));

    private AotCache() {}

    /** The running JVM is the one the services run on; AOT caches need JDK 25 or newer. */
    static boolean supported() {
        return Runtime.version().feature() >= 25;
    }

    /**
     * Trains when no valid cache exists.
     *
     * @param application the extracted application jar, as the instances will run it
     * @param trainingEnvironment the environment of a real instance (database and replica lists), since training
     *     starts the application context once
     */
    static ServiceLaunch prepare(
            String module,
            Path application,
            Path directory,
            List<String> jvmOptions,
            Map<String, String> trainingEnvironment) {
        return prepare(module, application, directory, jvmOptions, trainingEnvironment, state -> {}, state -> {});
    }

    /**
     * Trains first when no valid cache exists (perf's clusters, which want every start alike).
     *
     * @param working told what is going on while it takes time (training)
     * @param done told the outcome
     */
    static ServiceLaunch prepare(
            String module,
            Path application,
            Path directory,
            List<String> jvmOptions,
            Map<String, String> trainingEnvironment,
            Consumer<String> working,
            Consumer<String> done) {
        ServiceLaunch cached = cached(module, application, directory, jvmOptions, SOLO_RECIPE);
        if (cached != null) {
            done.accept("ready (AOT cache of this build)");
            return cached;
        }
        working.accept("training its AOT cache on its start (once per change)");
        Duration took = train(module, application, directory, jvmOptions, trainingEnvironment, TRAINING_TIMEOUT, 0);
        if (took == null) {
            // Slower without the cache, but running: the start goes on, and the next one trains again.
            done.accept("running without AOT cache: training failed, see " + directory.resolve("training.log"));
            return new ServiceLaunch(application, withoutCds(jvmOptions));
        }
        done.accept(String.format("AOT cache trained in %.1f s", took.toMillis() / 1000.0));
        return cached(module, application, directory, jvmOptions, SOLO_RECIPE);
    }

    /**
     * The launch from a valid cache in {@code directory}, or null when there is none for this jar, JDK, options and
     * training {@code recipe}.
     */
    static ServiceLaunch cached(
            String module, Path application, Path directory, List<String> jvmOptions, String recipe) {
        jvmOptions = withoutCds(jvmOptions);
        Path cache = directory.resolve(module + ".aot");
        Path stamp = directory.resolve("stamp.txt");
        try {
            boolean valid = Files.isRegularFile(cache)
                    && Files.isRegularFile(stamp)
                    && Files.readString(stamp).equals(stampOf(application, jvmOptions, recipe));
            if (!valid) return null;
        } catch (IOException e) {
            throw new UncheckedIOException("AOT cache for " + module, e);
        }
        List<String> options = new ArrayList<>(jvmOptions);
        options.add("-XX:AOTCache=" + cache);
        if (COMPILE_EAGERLY) options.addAll(EAGER_COMPILATION);
        return new ServiceLaunch(application, options);
    }

    /**
     * One training run into {@code directory} (replacing what is there).
     *
     * @param niceness CPU priority of the training JVM (0 = normal; the launcher's background training runs at 10,
     *     behind the cluster's own instances)
     * @return how long it took, or null when it failed (logged; its output is in {@code training.log} there)
     */
    static Duration train(
            String module,
            Path application,
            Path directory,
            List<String> jvmOptions,
            Map<String, String> trainingEnvironment,
            Duration timeout,
            int niceness) {
        jvmOptions = withoutCds(jvmOptions);
        Path cache = directory.resolve(module + ".aot");
        Path logFile = directory.resolve("training.log");
        try {
            Cluster.deleteRecursively(directory);
            Files.createDirectories(directory);
            long started = System.nanoTime();
            List<String> training = new ArrayList<>(jvmOptions);
            training.addAll(ServiceJars.aotTrainingArguments(cache, application, TRAINING_REQUESTS));
            run(training, trainingEnvironment, logFile, timeout, niceness);
            if (!Files.isRegularFile(cache)) throw new IllegalStateException("the training run wrote no cache");
            stamp(application, directory, jvmOptions, SOLO_RECIPE);
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            log.info("Trained the AOT cache of {} in {} ms", module, took.toMillis());
            return took;
        } catch (IOException | RuntimeException e) {
            log.warn("AOT training of {} failed (see {}): {}", module, logFile, e.getMessage());
            return null;
        }
    }

    /** Marks the cache in {@code directory} as trained for this jar, JDK, options and {@code recipe}. */
    static void stamp(Path application, Path directory, List<String> jvmOptions, String recipe) throws IOException {
        Files.writeString(directory.resolve("stamp.txt"), stampOf(application, withoutCds(jvmOptions), recipe));
    }

    /** The AOT cache replaces the CDS archive: the JVM refuses -Xshare options next to it. */
    static List<String> withoutCds(List<String> jvmOptions) {
        return jvmOptions.stream()
                .filter(option -> !option.startsWith("-Xshare"))
                .toList();
    }

    private static String stampOf(Path jar, List<String> jvmOptions, String recipe) throws IOException {
        return String.join(
                "\n",
                "jar-size=" + Files.size(jar),
                "jar-modified=" + Files.getLastModifiedTime(jar).toMillis(),
                "java=" + Runtime.version(),
                // A cache trained some other way is trained again.
                "training=" + recipe,
                "options=" + String.join(" ", jvmOptions));
    }

    private static void run(
            List<String> arguments, Map<String, String> environment, Path logFile, Duration timeout, int niceness)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(ServiceJars.javaExecutable());
        command.addAll(arguments);
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(logFile.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        if (niceness != 0) CpuPriority.set(process.pid(), niceness);
        // A training run must not outlive a launcher stopped with Ctrl-C.
        Thread reaper = new Thread(process::destroyForcibly, "aot-training-stop");
        Runtime.getRuntime().addShutdownHook(reaper);
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("Timed out: " + command + "; see " + logFile);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted: " + command, e);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(reaper);
            } catch (IllegalStateException shuttingDown) {
                // The reaper runs anyway.
            }
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException("Exit " + process.exitValue() + ": " + command + "; see " + logFile);
        }
    }
}
