package dev.agora.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agora.local.process.ServiceJars;
import dev.agora.local.process.ServiceProcess;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A service process started on a port another instance already holds (two clusters started at the same moment)
 * must not pass for ready on the other instance's readiness probe.
 */
class SamePortTest {

    @Test
    void anInstanceWhosePortAnotherProcessAnswersIsNotTakenForReady() {
        ServiceProcess holder = CatalogReplicas.get().getFirst();
        ServiceProcess late = ServiceProcess.builder(
                        "catalog-it-same-port", ServiceJars.locate("catalog-service"), holder.port())
                .env("AGORA_INVALIDATION_ENABLED", "false")
                .env(CatalogReplicas.localProfile())
                .logFile(Path.of("target", "catalog-it-same-port.log"))
                .build();
        try (late) {
            late.start();
            assertThatThrownBy(() -> late.awaitReady(Duration.ofMinutes(2)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("another process (pid " + holder.pid() + ")");
            assertThat(late.isAlive()).as("the late instance is stopped").isFalse();
        }
        assertThat(holder.isReady()).as("the holder still serves").isTrue();
    }
}
