package dev.agora.perf.jmh;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * A plain class path for this program: its own when it runs from ordinary folders and jars (tests, IDE),
 * or, when it runs as a Spring Boot fat jar, the jar's {@code BOOT-INF/classes} and {@code BOOT-INF/lib/*.jar}
 * unpacked into a folder keyed by the jar's size and time, so the unpacking happens once per build.
 */
public final class BootJarClasspath {

    /**
     * The annotation processor's benchmark list and compiler hints: Boot's repackaging keeps {@code META-INF/}
     * at the jar's root rather than under {@code BOOT-INF/classes}, so they are put back beside the classes.
     */
    private static final java.util.Set<String> JMH_METADATA =
            java.util.Set.of("META-INF/BenchmarkList", "META-INF/CompilerHints");

    private BootJarClasspath() {}

    public static String resolve() throws IOException {
        String classPath = System.getProperty("java.class.path");
        Path single = Path.of(classPath);
        if (classPath.contains(File.pathSeparator) || !Files.isRegularFile(single) || !isBootJar(single)) {
            return classPath;
        }
        return String.join(File.pathSeparator, unpack(single));
    }

    static boolean isBootJar(Path jar) throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            return file.getEntry("BOOT-INF/classes/") != null || file.getEntry("BOOT-INF/lib/") != null;
        }
    }

    /** Unpacks (when not done before) and returns the class path entries: classes folder first, then libraries. */
    static List<String> unpack(Path jar) throws IOException {
        Path target = Path.of(
                System.getProperty("java.io.tmpdir"),
                "agora-perf-jmh",
                Files.size(jar) + "-" + Files.getLastModifiedTime(jar).toMillis());
        Path classes = target.resolve("classes");
        Path lib = target.resolve("lib");
        Path done = target.resolve(".complete");
        if (!Files.exists(done)) {
            Files.createDirectories(classes);
            Files.createDirectories(lib);
            try (JarFile file = new JarFile(jar.toFile())) {
                Enumeration<JarEntry> entries = file.entries();
                while (entries.hasMoreElements()) {
                    JarEntry entry = entries.nextElement();
                    if (entry.isDirectory()) continue;
                    Path destination = destination(entry.getName(), classes, lib);
                    if (destination == null) continue;
                    Files.createDirectories(destination.getParent());
                    try (InputStream in = file.getInputStream(entry)) {
                        Files.copy(in, destination, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
            Files.writeString(done, jar.toString());
        }
        List<String> entries = new ArrayList<>();
        entries.add(classes.toString());
        try (var jars = Files.list(lib)) {
            jars.filter(path -> path.toString().endsWith(".jar"))
                    .sorted()
                    .forEach(path -> entries.add(path.toString()));
        }
        return entries;
    }

    /** Where a fat-jar entry goes; null for the Boot loader and metadata nobody needs. Guards against "../". */
    private static Path destination(String name, Path classes, Path lib) {
        Path resolved;
        if (name.startsWith("BOOT-INF/classes/"))
            resolved = classes.resolve(name.substring("BOOT-INF/classes/".length()));
        else if (name.startsWith("BOOT-INF/lib/")) resolved = lib.resolve(name.substring("BOOT-INF/lib/".length()));
        else if (JMH_METADATA.contains(name)) resolved = classes.resolve(name);
        else return null;
        Path normalized = resolved.normalize();
        if (!normalized.startsWith(classes) && !normalized.startsWith(lib)) {
            throw new IllegalStateException("jar entry escapes the target folder: " + name);
        }
        return normalized;
    }
}
