package dev.agora.launcher.cluster;

import dev.agora.local.process.ServiceJars;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Runs every service from its own extracted copy of the built jar ({@code java -Djarmode=tools extract}): an
 * application jar plus a {@code lib/} folder of plain jars. Two reasons: the JVM starts faster from plain jars than
 * from jars nested in a fat jar, and a rebuild of a module while the cluster runs (others build in the same tree)
 * cannot change classes under a running or restarting JVM. Extraction happens again only when the built jar's
 * content changed: its entries' names, sizes and CRCs, not its time stamp, since every {@code package} rewrites a
 * Spring Boot jar. Keeping the extracted files as they are also keeps the service's AOT cache valid, which the JVM
 * checks against its class path's files.
 */
final class JarSnapshots {

    private static final long EXTRACT_TIMEOUT_SECONDS = 120;

    private JarSnapshots() {}

    /** The application jar to run with {@code java -jar}, extracted under {@code <dataDirectory>/jars/<module>}. */
    static Path extracted(String module, Path dataDirectory) {
        Path source = locate(module);
        Path directory = dataDirectory.resolve("jars").resolve(module);
        Path application = directory.resolve(module + "-exec.jar");
        Path stamp = directory.resolve("source.txt");
        try {
            String wanted = source + "\n" + fingerprint(source) + "\n";
            if (Files.isRegularFile(application)
                    && Files.isRegularFile(stamp)
                    && Files.readString(stamp).equals(wanted)) {
                return application;
            }
            Path partial = directory.resolveSibling(module + ".partial");
            Cluster.deleteRecursively(partial);
            Files.createDirectories(partial);
            extract(source, module, partial);
            Files.writeString(partial.resolve("source.txt"), wanted);
            Cluster.deleteRecursively(directory);
            Files.move(partial, directory, StandardCopyOption.ATOMIC_MOVE);
            return application;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not extract " + source, e);
        }
    }

    /** A digest of the jar's entries (name, size, CRC-32 of the content), read from its central directory. */
    static String fingerprint(Path jar) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            List<? extends ZipEntry> entries =
                    zip.stream().sorted(Comparator.comparing(ZipEntry::getName)).toList();
            for (ZipEntry entry : entries) {
                digest.update((entry.getName() + " " + entry.getSize() + " " + entry.getCrc() + "\n")
                        .getBytes(StandardCharsets.UTF_8));
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    private static void extract(Path jar, String module, Path destination) throws IOException {
        // Extract from a copy: reading the built jar for seconds would race with a rebuild rewriting it.
        Path copy = destination.resolveSibling(module + ".copy.jar");
        Files.copy(jar, copy, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
        Path log = destination.resolveSibling(module + ".extract.log");
        try {
            Process process = new ProcessBuilder(List.of(
                            ServiceJars.javaExecutable(),
                            "-Djarmode=tools",
                            "-jar",
                            copy.toString(),
                            "extract",
                            "--force",
                            "--application-filename",
                            module + "-exec.jar",
                            "--destination",
                            destination.toString()))
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            if (!process.waitFor(EXTRACT_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("Extracting " + jar + " timed out; see " + log);
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("Extracting " + jar + " failed; see " + log);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while extracting " + jar, e);
        } finally {
            Files.deleteIfExists(copy);
        }
    }

    /**
     * The reactor's {@code <module>/target/<module>-exec.jar} above the working directory, else the one installed
     * in the local Maven repository, so the launcher also works from an installed build.
     */
    static Path locate(String module) {
        try {
            return ServiceJars.locate(module);
        } catch (IllegalStateException notInTree) {
            Path installed = Path.of(System.getProperty("user.home"), ".m2", "repository", "dev", "agora", module)
                    .resolve("0.1.0-SNAPSHOT")
                    .resolve(module + "-0.1.0-SNAPSHOT-exec.jar");
            if (Files.isRegularFile(installed)) return installed;
            throw notInTree;
        }
    }
}
