package dev.agora.perf.cluster;

import dev.agora.local.process.ServiceJars;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A JDK 25 ahead-of-time cache per service (JEP 483/514/515): classes loaded, linked and profiled in a training
 * run are mapped from the cache at start-up instead of being read from the jar, which roughly halves the time to
 * ready. The cache is only valid for the exact class path it was trained on (the extracted jars of {@link
 * JarSnapshots}), so it is reused while those jars, the JDK and the JVM options stay the same.
 */
final class AotCache {

    private static final Logger log = LoggerFactory.getLogger(AotCache.class);
    private static final long TRAINING_TIMEOUT_SECONDS = 300;

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
        // The AOT cache replaces the CDS archive: the JVM refuses -Xshare options next to it.
        jvmOptions = jvmOptions.stream()
                .filter(option -> !option.startsWith("-Xshare"))
                .toList();
        Path cache = directory.resolve(module + ".aot");
        Path stamp = directory.resolve("stamp.txt");
        try {
            String wanted = stampOf(application, jvmOptions);
            boolean valid = Files.isRegularFile(cache)
                    && Files.isRegularFile(stamp)
                    && Files.readString(stamp).equals(wanted);
            if (!valid) {
                Cluster.deleteRecursively(directory);
                Files.createDirectories(directory);
                long started = System.nanoTime();
                List<String> training = new ArrayList<>(jvmOptions);
                training.addAll(List.of(
                        "-XX:AOTCacheOutput=" + cache,
                        "-Dspring.context.exit=onRefresh",
                        "-jar",
                        application.toString(),
                        "--server.port=0",
                        "--server.address=127.0.0.1"));
                run(training, trainingEnvironment, directory.resolve("training.log"));
                if (!Files.isRegularFile(cache)) {
                    throw new IllegalStateException(
                            "AOT training of " + module + " wrote no cache; see " + directory.resolve("training.log"));
                }
                Files.writeString(stamp, wanted);
                log.info("Trained AOT cache for {} in {} ms", module, (System.nanoTime() - started) / 1_000_000);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("AOT cache for " + module, e);
        }
        List<String> options = new ArrayList<>(jvmOptions);
        options.add("-XX:AOTCache=" + cache);
        return new ServiceLaunch(application, options);
    }

    private static String stampOf(Path jar, List<String> jvmOptions) throws IOException {
        return String.join(
                "\n",
                "jar-size=" + Files.size(jar),
                "jar-modified=" + Files.getLastModifiedTime(jar).toMillis(),
                "java=" + Runtime.version(),
                "options=" + String.join(" ", jvmOptions));
    }

    private static void run(List<String> arguments, Map<String, String> environment, Path logFile) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(ServiceJars.javaExecutable());
        command.addAll(arguments);
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(logFile.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        // A training run must not outlive a launcher stopped with Ctrl-C.
        Thread reaper = new Thread(process::destroyForcibly, "aot-training-stop");
        Runtime.getRuntime().addShutdownHook(reaper);
        try {
            if (!process.waitFor(TRAINING_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
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
