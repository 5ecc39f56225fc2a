package dev.agora.launcher.cluster;

import dev.agora.local.cluster.FreePorts;
import dev.agora.local.process.AotTraining;
import dev.agora.local.process.ServiceProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A JDK 25 ahead-of-time cache per service (JEP 483/514/515): classes loaded and linked in a training run, and the
 * method profiles it gathered, are mapped from the cache at start-up instead of being read from the jar and learnt
 * again, so a service is ready sooner and its JIT compiles the request path from the first requests on. Here a
 * service trains alone (the bookstore's tiers train together on real buys, {@link BookstoreTraining}): it starts
 * against the cluster's database and is stopped once ready, and the JVM writes the cache as it exits
 * ({@link AotTraining}). The exchange, the one service trained this way, is sent no requests: its hot path is the XML
 * protocol over TCP, and its JSON API answers nothing without a trader's or an admin's token. So its cache holds its
 * start, and its standby warms the JSON order path in-process instead ({@code StandbyWarmUp}). The cache is only valid
 * for the exact class path it was trained on (the extracted jars of {@link JarSnapshots}), so it is reused while those
 * jars, the JDK and the JVM options stay the same: once per change of the service.
 */
final class AotCache {

    private static final Logger log = LoggerFactory.getLogger(AotCache.class);
    static final Duration TRAINING_TIMEOUT = Duration.ofMinutes(5);

    /** Names that training in the stamp: a cache trained some other way is trained again. */
    static final String SOLO_RECIPE = "start-until-ready";

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
            var service = ServiceProcess.builder(module + "-training", application, FreePorts.next())
                    .jvmOptions(AotTraining.jvmOptions(jvmOptions, cache))
                    .env(trainingEnvironment)
                    .logFile(logFile)
                    .build();
            AotTraining.run(service, module, 0, cache, timeout, process -> {
                if (niceness != 0) CpuPriority.set(process.pid(), niceness);
            });
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
}
