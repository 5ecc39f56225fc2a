package dev.agora.local.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A PostgreSQL server is a postmaster that does little itself while its backends (children) work: the tree's CPU
 * time must count them. A real shell whose child burns CPU stands in for it.
 */
class ProcessTreeCpuTest {

    @Test
    void aProcessTreesCpuTimeCountsItsBusyChildWhichItsOwnTimeDoesNot() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "needs Linux /proc");
        Process parent = new ProcessBuilder("sh", "-c", "timeout 5 sh -c 'while :; do :; done' & wait").start();
        try {
            Thread.sleep(1_500);
            long tree = ProcessFigures.treeCpuTicks(parent.pid());
            long own = ProcessFigures.cpuTicks(parent.pid(), true);

            assertThat(own).isGreaterThanOrEqualTo(0);
            // The child has run about 1.5 s of a possibly busy machine: at least 5 ticks (50 ms) more than its parent.
            assertThat(tree).isGreaterThan(own + 5);
        } finally {
            parent.descendants().forEach(ProcessHandle::destroyForcibly);
            parent.destroyForcibly();
            parent.waitFor(5, TimeUnit.SECONDS);
        }
        assertThat(ProcessFigures.treeCpuTicks(parent.pid())).isEqualTo(-1);
    }
}
