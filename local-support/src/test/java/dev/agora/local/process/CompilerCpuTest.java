package dev.agora.local.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * buy-cost tells a JVM's JIT compilers' CPU apart from the rest of its CPU: a busy process without a JIT has none,
 * and this test's own JVM, which compiled its way through start-up and the test framework, has some, but less than
 * its whole CPU time.
 */
class CompilerCpuTest {

    @Test
    void aJvmsCompilerThreadsAreCountedAndABusyShellHasNone() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "needs Linux /proc");
        long self = ProcessHandle.current().pid();
        long compilers = ProcessFigures.compilerCpuTicks(self);

        assertThat(compilers).isPositive();
        assertThat(compilers).isLessThan(ProcessFigures.cpuTicks(self, false));

        Process shell = new ProcessBuilder("sh", "-c", "timeout 5 sh -c 'while :; do :; done'").start();
        try {
            Thread.sleep(1_000);
            assertThat(ProcessFigures.treeCpuTicks(shell.pid())).isGreaterThan(5);
            assertThat(ProcessFigures.compilerCpuTicks(shell.pid())).isZero();
        } finally {
            shell.descendants().forEach(ProcessHandle::destroyForcibly);
            shell.destroyForcibly();
            shell.waitFor(5, TimeUnit.SECONDS);
        }
        assertThat(ProcessFigures.compilerCpuTicks(shell.pid())).isEqualTo(-1);
    }
}
