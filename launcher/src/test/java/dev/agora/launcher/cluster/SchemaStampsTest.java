package dev.agora.launcher.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchemaStampsTest {

    @TempDir
    Path dataDirectory;

    private Path application;

    @BeforeEach
    void extractedJarAndDatabase() throws Exception {
        Path jars = Files.createDirectories(dataDirectory.resolve("jars").resolve("catalog-service"));
        application = Files.writeString(jars.resolve("catalog-service-exec.jar"), "classes");
        Files.writeString(jars.resolve("source.txt"), "/build/catalog-service-exec.jar\ndigest-1\n");
        Path postgres = Files.createDirectories(dataDirectory.resolve("postgres"));
        Files.writeString(postgres.resolve("PG_VERSION"), "17\n");
    }

    @Test
    void aDatabaseNeverStampedIsMigratedAndChecked() {
        assertThat(new SchemaStamps(dataDirectory).current("catalog", application))
                .isFalse();
    }

    @Test
    void theSameBuildOnTheSameDatabaseSkipsTheCheck() {
        new SchemaStamps(dataDirectory).record("catalog", application);

        assertThat(new SchemaStamps(dataDirectory).current("catalog", application))
                .isTrue();
        assertThat(new SchemaStamps(dataDirectory).current("orders", application))
                .isFalse();
    }

    @Test
    void aRebuiltServiceIsMigratedAndCheckedAgain() throws Exception {
        new SchemaStamps(dataDirectory).record("catalog", application);

        Files.writeString(application.resolveSibling("source.txt"), "/build/catalog-service-exec.jar\ndigest-2\n");

        assertThat(new SchemaStamps(dataDirectory).current("catalog", application))
                .isFalse();
    }

    @Test
    void aNewPostgresDataDirectoryIsMigratedAndCheckedAgain() throws Exception {
        new SchemaStamps(dataDirectory).record("catalog", application);

        Path pgVersion = dataDirectory.resolve("postgres").resolve("PG_VERSION");
        Files.setLastModifiedTime(
                pgVersion,
                FileTime.fromMillis(Files.getLastModifiedTime(pgVersion).toMillis() + 60_000));

        assertThat(new SchemaStamps(dataDirectory).current("catalog", application))
                .isFalse();
    }
}
