package dev.agora.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A service started by the launcher ({@code agora.parent-pid}) ends with it: the watch on the parent process. */
class ParentProcessTest {

    @Test
    void actsOnceTheWatchedProcessHasEnded() throws Exception {
        Process parent = new ProcessBuilder("sleep", "60").start();
        var acted = AgoraCommonAutoConfiguration.whenGone(parent.pid(), () -> {});
        Thread.sleep(300);
        assertThat(acted).as("parent still running").isNotDone();

        parent.destroyForcibly();

        acted.get(5, TimeUnit.SECONDS);
    }

    @Test
    void actsAtOnceWhenTheProcessIsNotRunning() throws Exception {
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();

        AgoraCommonAutoConfiguration.whenGone(ended.pid(), () -> {}).get(1, TimeUnit.SECONDS);
    }
}
