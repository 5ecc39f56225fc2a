package dev.agora.local.process;

import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the runnable jars of the reactor's services, from the repository root or any folder below it. */
public final class ServiceJars {

    private ServiceJars() {}

    /**
     * The build's output folder: {@code target} unless the build ran with {@code -Dagora.target=...} (so two
     * builds in one tree, and the tests they start, each use their own jars); {@code AGORA_TARGET} likewise.
     */
    public static String outputFolder() {
        String configured = System.getProperty("agora.target", System.getenv("AGORA_TARGET"));
        return configured == null || configured.isBlank() ? "target" : configured;
    }

    /** {@code <root>/<module>/<output>/<module>-exec.jar}, searched upwards from the working directory. */
    public static Path locate(String module) {
        String output = outputFolder();
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            // Joined as Maven joins ${project.basedir}/${agora.target}: "/tmp/x" is a folder below the module too.
            Path jar = Path.of(dir.toString(), module, output, module + "-exec.jar");
            if (Files.isRegularFile(jar)) return jar;
            dir = dir.getParent();
        }
        throw new IllegalStateException("No " + module + "/" + output + "/" + module + "-exec.jar above "
                + Path.of("").toAbsolutePath() + ": build it first (./mvnw -DskipTests package)");
    }

    /** The java executable of the running JVM, so children run on the same JDK as their parent. */
    public static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
