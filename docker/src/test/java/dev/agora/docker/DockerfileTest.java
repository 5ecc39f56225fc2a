package dev.agora.docker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** The service images: multi-stage wrapper builds without embedded PostgreSQL, non-root JRE runtimes. */
class DockerfileTest {

    static final List<String> SERVICE_IDS = DockerDirectory.SERVICE_IDS;

    private static int composePort(String serviceId) {
        return DockerDirectory.compose().replicasOf(serviceId).getFirst().port().orElseThrow();
    }

    @ParameterizedTest
    @FieldSource("SERVICE_IDS")
    void imageFollowsTheRules(String serviceId) {
        assertThat(DockerfileRules.violations(DockerDirectory.dockerfile(serviceId), serviceId, composePort(serviceId)))
                .isEmpty();
    }

    @ParameterizedTest
    @FieldSource("SERVICE_IDS")
    void buildContextLeavesOutBuildOutputAndSecretsButKeepsTheReactor(String serviceId) {
        var ignored = DockerDirectory.read(serviceId + ".Dockerfile.dockerignore")
                .lines()
                .toList();
        assertThat(ignored).contains(".git/", "**/target/", "docker/**", "!docker/pom.xml", "!docker/healthcheck.sh");
        assertThat(ignored).noneMatch(line -> line.matches("\\*\\*/pom\\.xml|pom\\.xml|\\*/pom\\.xml"));
    }

    @Test
    void everyDockerfileIsAServiceImageThatComposeBuilds() throws IOException {
        try (Stream<Path> files = Files.list(DockerDirectory.ROOT)) {
            var dockerfiles = files.map(file -> file.getFileName().toString())
                    .filter(name -> name.endsWith(".Dockerfile"))
                    .map(name -> name.substring(0, name.length() - ".Dockerfile".length()))
                    .toList();
            assertThat(dockerfiles).containsExactlyInAnyOrderElementsOf(SERVICE_IDS);
        }
        ComposeFile compose = DockerDirectory.compose();
        SERVICE_IDS.forEach(id -> assertThat(compose.replicasOf(id)).as(id).isNotEmpty());
    }

    @Test
    void theExchangeImageExposesTheProtocolPort() {
        Dockerfile exchange = DockerDirectory.dockerfile("exchange-service");
        assertThat(Dockerfile.withKeyword(exchange.finalStage(), "EXPOSE"))
                .anyMatch(expose -> expose.arguments().contains("12345"));
        assertThat(Dockerfile.withKeyword(exchange.finalStage(), "ENV"))
                .anyMatch(env -> env.arguments().contains("AGORA_EXCHANGE_TCP_PORT=12345"));
    }

    // ---- the rules catch mistakes -------------------------------------------------------------------------

    private static String catalogDockerfile() {
        return DockerDirectory.read("catalog-service.Dockerfile");
    }

    private static List<String> violationsOf(String text) {
        return DockerfileRules.violations(Dockerfile.parse("broken.Dockerfile", text), "catalog-service", 8180);
    }

    @Test
    void aSingleStageImageIsReported() {
        String singleStage =
                """
                FROM eclipse-temurin:25-jdk-noble
                COPY . .
                RUN ./mvnw -B -pl catalog-service -am package
                ENTRYPOINT ["java", "-jar", "catalog-service/target/catalog-service-exec.jar"]
                """;
        assertThat(violationsOf(singleStage)).containsExactly("broken.Dockerfile is not a multi-stage build");
    }

    @Test
    void aBuildWithoutTheWrapperOrOfAnotherModuleIsReported() {
        assertThat(violationsOf(catalogDockerfile().replace("./mvnw", "mvn")))
                .containsExactly("broken.Dockerfile does not build with the Maven wrapper (./mvnw) in a build stage");
        assertThat(violationsOf(catalogDockerfile().replace("-pl catalog-service", "-pl order-service")))
                .containsExactly("broken.Dockerfile does not build -pl catalog-service");
    }

    @Test
    void aJdkOrOldRuntimeImageIsReported() {
        assertThat(violationsOf(catalogDockerfile()
                        .replace("FROM eclipse-temurin:25-jre-noble", "FROM eclipse-temurin:25-jdk-noble")))
                .containsExactly("broken.Dockerfile runtime base eclipse-temurin:25-jdk-noble is not a JRE image");
        assertThat(violationsOf(catalogDockerfile()
                        .replace("FROM eclipse-temurin:25-jre-noble", "FROM eclipse-temurin:17-jre-jammy")))
                .containsExactly("broken.Dockerfile runtime base eclipse-temurin:17-jre-jammy is older than Java 21");
    }

    @Test
    void aRootUserIsReported() {
        assertThat(violationsOf(catalogDockerfile().replace("USER 10001:10001", "USER root")))
                .containsExactly("broken.Dockerfile runs as root (USER root)");
        assertThat(violationsOf(catalogDockerfile().replace("USER 10001:10001", "USER 0:0")))
                .containsExactly("broken.Dockerfile runs as root (USER 0)");
        assertThat(violationsOf(catalogDockerfile().replace("USER 10001:10001", "")))
                .containsExactly("broken.Dockerfile runs as root (no USER in the final stage)");
    }

    @Test
    void aMissingHealthcheckIsReported() {
        String withoutHealthcheck = catalogDockerfile()
                .lines()
                .filter(line -> !line.startsWith("HEALTHCHECK"))
                .collect(Collectors.joining("\n"));
        assertThat(violationsOf(withoutHealthcheck)).containsExactly("broken.Dockerfile has no HEALTHCHECK");
    }

    @Test
    void aPortOtherThanComposesIsReported() {
        assertThat(DockerfileRules.violations(
                        Dockerfile.parse("broken.Dockerfile", catalogDockerfile()), "catalog-service", 8181))
                .containsExactly(
                        "broken.Dockerfile does not set ENV PORT=8181", "broken.Dockerfile does not EXPOSE 8181");
    }

    @Test
    void aFatJarImageIsReported() {
        String fatJar = catalogDockerfile().replace("extract --layers --launcher", "extract");
        assertThat(violationsOf(fatJar))
                .containsExactly("broken.Dockerfile does not extract the layers of catalog-service-exec.jar");
    }
}
