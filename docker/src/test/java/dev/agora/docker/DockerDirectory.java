package dev.agora.docker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The files under {@code docker/} that the checks read. Tests run with the module folder as working directory. */
final class DockerDirectory {

    static final Path ROOT = Path.of("").toAbsolutePath();

    /** The services built from this repository, by service id; each has {@code docker/<id>.Dockerfile}. */
    static final List<String> SERVICE_IDS =
            List.of("catalog-service", "order-service", "frontend-service", "exchange-service");

    private DockerDirectory() {}

    static Path file(String relative) {
        Path file = ROOT.resolve(relative);
        if (!Files.isRegularFile(file)) throw new IllegalStateException("Missing " + file);
        return file;
    }

    static String read(String relative) {
        try {
            return Files.readString(file(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Map<String, String> exampleEnvironment() {
        return EnvFile.read(file(".env.example"));
    }

    static ComposeFile compose() {
        return ComposeFile.parse(read("compose.yaml"), exampleEnvironment());
    }

    static Dockerfile dockerfile(String serviceId) {
        return Dockerfile.parse(serviceId + ".Dockerfile", read(serviceId + ".Dockerfile"));
    }
}
