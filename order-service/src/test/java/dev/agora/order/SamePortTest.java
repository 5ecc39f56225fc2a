package dev.agora.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agora.local.process.ServiceProcess;
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
        ServiceProcess late = CatalogReplicas.PROCESSES.service(
                "catalog-service", "catalog-it-same-port", holder.port(), catalog -> catalog.env(
                                "AGORA_INVALIDATION_ENABLED", "false")
                        .env(CatalogReplicas.localProfile()));
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
