package dev.agora.perf.cluster;

import dev.agora.common.process.ServiceJars;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Runs services from a private copy of their jars, so a rebuild of a module while the cluster runs (other people
 * build in the same tree) cannot change a jar under a running or restarting JVM. The copy is refreshed only when
 * the built jar changed.
 */
final class JarSnapshots {

    private JarSnapshots() {}

    static Path snapshot(String module, Path dataDirectory) {
        Path source = locate(module);
        Path target = dataDirectory.resolve("jars").resolve(module + "-exec.jar");
        try {
            if (sameFile(source, target)) return target;
            Files.createDirectories(target.getParent());
            Path partial = target.resolveSibling(target.getFileName() + ".partial");
            Files.copy(source, partial, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
            Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not copy " + source, e);
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

    private static boolean sameFile(Path source, Path target) throws IOException {
        return Files.isRegularFile(target)
                && Files.size(source) == Files.size(target)
                && Files.getLastModifiedTime(source).equals(Files.getLastModifiedTime(target));
    }
}
