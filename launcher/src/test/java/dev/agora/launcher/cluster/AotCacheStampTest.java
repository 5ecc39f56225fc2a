package dev.agora.launcher.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A cache is used only for the jar, JVM options and training it was made with; anything else trains again. */
class AotCacheStampTest {

    private static final List<String> OPTIONS = ClusterSpec.THROUGHPUT_JVM_OPTIONS;

    @TempDir
    Path directory;

    @Test
    void aCacheTrainedOnTheBookstoresWorkloadIsUsedForThatWorkloadOnly() throws Exception {
        Path jar = Files.writeString(directory.resolve("catalog-service.jar"), "classes");
        Files.writeString(directory.resolve("catalog-service.aot"), "cache");
        AotCache.stamp(jar, directory, OPTIONS, BookstoreTraining.RECIPE);

        ServiceLaunch launch = AotCache.cached("catalog-service", jar, directory, OPTIONS, BookstoreTraining.RECIPE);
        assertThat(launch).isNotNull();
        assertThat(launch.jvmOptions()).contains("-XX:AOTCache=" + directory.resolve("catalog-service.aot"));

        // A cache from the services' own rejected requests (earlier builds) is not one of real buys.
        assertThat(AotCache.cached("catalog-service", jar, directory, OPTIONS, AotCache.SOLO_RECIPE))
                .isNull();
        assertThat(AotCache.cached(
                        "catalog-service",
                        jar,
                        directory,
                        ClusterSpec.FAST_START_JVM_OPTIONS,
                        BookstoreTraining.RECIPE))
                .isNull();
    }

    @Test
    void aChangedJarOrAMissingCacheTrainsAgain() throws Exception {
        Path jar = Files.writeString(directory.resolve("order-service.jar"), "classes");
        AotCache.stamp(jar, directory, OPTIONS, BookstoreTraining.RECIPE);
        assertThat(AotCache.cached("order-service", jar, directory, OPTIONS, BookstoreTraining.RECIPE))
                .as("no cache file beside the stamp")
                .isNull();

        Files.writeString(directory.resolve("order-service.aot"), "cache");
        Files.writeString(jar, "other classes");
        assertThat(AotCache.cached("order-service", jar, directory, OPTIONS, BookstoreTraining.RECIPE))
                .isNull();
    }
}
