package dev.agora.common.process;

import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the runnable jars of the reactor's services, from the repository root or any folder below it. */
public final class ServiceJars {

    private ServiceJars() {}

    /** {@code <root>/<module>/target/<module>-exec.jar}, searched upwards from the working directory. */
    public static Path locate(String module) {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            Path jar = dir.resolve(module).resolve("target").resolve(module + "-exec.jar");
            if (Files.isRegularFile(jar)) return jar;
            dir = dir.getParent();
        }
        throw new IllegalStateException("No " + module + "/target/" + module + "-exec.jar above "
                + Path.of("").toAbsolutePath() + ": build it first (./mvnw -DskipTests package)");
    }

    /** The java executable of the running JVM, so children run on the same JDK as their parent. */
    public static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
