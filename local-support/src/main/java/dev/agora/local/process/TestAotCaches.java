package dev.agora.local.process;

import dev.agora.local.cluster.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Service processes that tests start run from a JDK 25 AOT cache (JEP 483, 514), as the launcher's do: the classes a
 * service loads and links while it starts and serves its first requests are mapped from the cache instead of read,
 * verified and linked again, which is most of a start on a busy two-core machine. One cache per built exec jar, kept
 * beside it ({@code <module>/target/test-aot/<digest of its content>/}): the jar is extracted there (the cache needs a
 * class path of plain jars), then one training run ({@link AotTraining}) starts it on a throwaway database, sends it a
 * hundred requests that change nothing and stops it, and the JVM writes the cache. Every later process of that jar, in this test run and in later modules' tests, starts from
 * it. A jar rebuilt with other content gets a folder of its own, so a process still running from the old one is left
 * alone. A training that fails (its {@code training.log} says why) costs the cache, not the test: processes then run
 * without it. Below JDK 25, or with {@code -Dagora.test.aot-cache=false}, processes run from the exec jar as before.
 */
public final class TestAotCaches {

    private static final Logger log = LoggerFactory.getLogger(TestAotCaches.class);
    private static final Duration EXTRACT_TIMEOUT = Duration.ofMinutes(2);
    /** On a machine that other builds keep busy too: generous, it only catches a hang. */
    private static final Duration TRAINING_TIMEOUT = Duration.ofMinutes(10);

    static final int TRAINING_REQUESTS = 100;
    /**
     * One preparation of a jar's caches at a time in this JVM (a JVM may hold a file's lock once); a file lock does
     * the same between JVMs (parallel module builds). A process whose jar's cache is ready does not wait for another
     * jar's; the trainings themselves take turns ({@link #TRAININGS}).
     */
    private static final Map<Path, Object> LOCKS = new ConcurrentHashMap<>();
    /**
     * One training at a time in this JVM. Two at a time (one a core) trained a frontend suite's catalog and order
     * sooner alone, but CI builds two modules side by side, each starting clusters: four trainings on two cores made
     * the frontend suite's first class take 267 s instead of 140 s. A thread waits for its turn holding no jar's lock
     * ({@link TrainingTurns}): when it held the lock of the jar it was to train, the launcher's tests, preparing their
     * four tiers at once, held every jar's lock while training one, and the frontend's tests, started beside them,
     * waited for jars no one was training: a CI run trained its four caches one after another, on one core of two.
     */
    private static final TrainingTurns TRAININGS = new TrainingTurns(1);

    private TestAotCaches() {}

    public static boolean enabled() {
        return Runtime.version().feature() >= 25
                && !"false".equalsIgnoreCase(System.getProperty("agora.test.aot-cache", "true"));
    }

    /**
     * Points {@code builder} at the extracted copy of its exec jar and at that jar's AOT cache, extracting and
     * training first when this build's jar has none yet.
     *
     * @param trainingDatabase {@code DATABASE_*} of the named database, which the training run may migrate and throw
     *     away
     */
    public static void use(ServiceProcess.Builder builder, Function<String, Map<String, String>> trainingDatabase) {
        Path execJar = builder.jar().toAbsolutePath();
        if (!isSpringBootJar(execJar)) return;
        Path root = execJar.resolveSibling("test-aot");
        synchronized (LOCKS.computeIfAbsent(root, folder -> new Object())) {
            try {
                Files.createDirectories(root);
                Path folder = root.resolve(version(execJar));
                try (FileChannel channel =
                        FileChannel.open(root.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                    TRAININGS.prepare(
                            channel,
                            () -> {
                                if (!extract(execJar, folder)) return true;
                                if (!trained(folder)) return false;
                                runFrom(builder, folder, execJar);
                                return true;
                            },
                            () -> {
                                train(
                                        application(folder, execJar),
                                        folder.resolve("service.aot"),
                                        folder.resolve("training-failed"),
                                        folder.resolve("training.log"),
                                        builder,
                                        trainingDatabase.apply(databaseName(execJar)));
                                return true;
                            });
                }
            } catch (IOException e) {
                throw new UncheckedIOException("AOT cache of " + execJar, e);
            }
        }
    }

    /** Extracts {@code execJar} into {@code folder} unless done; false when that failed (it then runs as it is). */
    private static boolean extract(Path execJar, Path folder) throws IOException {
        try {
            extracted(execJar, folder);
            return true;
        } catch (RuntimeException e) {
            log.warn("Running {} from its exec jar: extracting it failed: {}", execJar, e.getMessage());
            return false;
        }
    }

    /** Whether the jar's training ran, in this JVM or another: its cache is there, or it failed for good. */
    private static boolean trained(Path folder) {
        return Files.exists(folder.resolve("service.aot")) || Files.exists(folder.resolve("training-failed"));
    }

    /** Points {@code builder} at the extracted copy in {@code folder} and at its cache, when the training made one. */
    private static void runFrom(ServiceProcess.Builder builder, Path folder, Path execJar) {
        Path cache = folder.resolve("service.aot");
        builder.jar(application(folder, execJar));
        List<String> options = new ArrayList<>(withoutCds(builder.jvmOptions()));
        if (Files.isRegularFile(cache)) options.add("-XX:AOTCache=" + cache);
        builder.jvmOptions(options);
    }

    /** Only a Spring Boot exec jar can be extracted into plain jars (a test may run a small jar of its own). */
    private static boolean isSpringBootJar(Path jar) {
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest manifest = file.getManifest();
            return manifest != null && manifest.getMainAttributes().getValue("Spring-Boot-Version") != null;
        } catch (IOException e) {
            return false;
        }
    }

    /** A database of the training runs of this jar's service: {@code aot_catalog_service_exec}. */
    private static String databaseName(Path jar) {
        String name = jar.getFileName().toString().replaceFirst("\\.jar$", "");
        return ("aot_" + name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "_"))
                .substring(0, Math.min(63, 4 + name.length()));
    }

    /**
     * Names the jar's content (its entries' names, sizes and CRCs, from its central directory), not its time stamp:
     * every {@code package} rewrites a Spring Boot jar, and a jar whose content did not change keeps its cache.
     */
    private static String version(Path jar) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            zip.stream()
                    .sorted(Comparator.comparing(ZipEntry::getName))
                    .forEach(entry ->
                            digest.update((entry.getName() + " " + entry.getSize() + " " + entry.getCrc() + "\n")
                                    .getBytes(StandardCharsets.UTF_8)));
        }
        return HexFormat.of().formatHex(digest.digest(), 0, 12);
    }

    /** The application jar of {@code jar}'s extracted copy in {@code folder} (with its {@code lib/}). */
    private static Path application(Path folder, Path jar) {
        return folder.resolve("app").resolve(jar.getFileName());
    }

    /** Extracts {@code jar} into {@code folder} unless an earlier run did; its application jar. */
    private static Path extracted(Path jar, Path folder) throws IOException {
        Path application = application(folder, jar);
        if (Files.isRegularFile(folder.resolve("extracted"))) return application;
        Files.createDirectories(folder);
        run(
                List.of(
                        ServiceJars.javaExecutable(),
                        "-Djarmode=tools",
                        "-jar",
                        jar.toString(),
                        "extract",
                        "--force",
                        "--application-filename",
                        jar.getFileName().toString(),
                        "--destination",
                        folder.resolve("app").toString()),
                Map.of(),
                folder.resolve("extract.log"),
                EXTRACT_TIMEOUT);
        if (!Files.isRegularFile(application)) throw new IllegalStateException("Extracting " + jar + " made no jar");
        Files.writeString(folder.resolve("extracted"), jar + "\n");
        return application;
    }

    private static void train(
            Path application,
            Path cache,
            Path failed,
            Path logFile,
            ServiceProcess.Builder builder,
            Map<String, String> trainingDatabase)
            throws IOException {
        String module = application.getFileName().toString().replaceFirst("-exec\\.jar$", "");
        ServiceProcess service = ServiceProcess.builder("aot-training-" + module, application, FreePorts.next())
                .jvmOptions(AotTraining.jvmOptions(withoutCds(builder.jvmOptions()), cache))
                .env(builder.environment())
                .env(trainingDatabase)
                .env("AGORA_EXCHANGE_TCP_PORT", "0")
                .logFile(logFile)
                .build();
        long started = System.nanoTime();
        try {
            AotTraining.run(service, module, TRAINING_REQUESTS, cache, TRAINING_TIMEOUT, process -> {});
            log.info(
                    "Trained the AOT cache of {} in {} ms",
                    application.getFileName(),
                    (System.nanoTime() - started) / 1_000_000);
        } catch (RuntimeException e) {
            log.warn("AOT training of {} failed (see {}): {}", application.getFileName(), logFile, e.getMessage());
            Files.deleteIfExists(cache);
            Files.writeString(failed, e.getMessage() + "\n");
        }
    }

    /** The AOT cache replaces the class-data-sharing archive: the JVM refuses {@code -Xshare} options next to it. */
    private static List<String> withoutCds(List<String> options) {
        return options.stream().filter(option -> !option.startsWith("-Xshare")).toList();
    }

    private static void run(List<String> command, Map<String, String> environment, Path logFile, Duration timeout)
            throws IOException {
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(logFile.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("timed out after " + timeout + ": see " + logFile);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException("exit " + process.exitValue() + ": see " + logFile);
        }
    }
}
