package dev.agora.launcher.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/** Keeps the instance logs of a test's cluster after its data directory is deleted, for post-mortems. */
final class ClusterLogs {

    private ClusterLogs() {}

    static Path keep(Path dataDirectory, String testName) {
        Path source = dataDirectory.resolve("logs");
        Path target = Path.of(System.getProperty("java.io.tmpdir"), "agora-cluster-logs")
                .resolve(testName + "-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("HHmmss")));
        if (!Files.isDirectory(source)) return target;
        try (var logs = Files.list(source)) {
            Files.createDirectories(target);
            for (Path log : logs.toList()) {
                Files.copy(log, target.resolve(log.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        System.out.println("Cluster logs of " + testName + ": " + target);
        return target;
    }
}
