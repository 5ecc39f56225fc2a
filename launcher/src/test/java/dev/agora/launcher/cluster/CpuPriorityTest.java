package dev.agora.launcher.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agora.local.process.ProcessFigures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Priorities of a real JVM's threads, read back from /proc (Linux, as the superuser, who alone may restore them). */
class CpuPriorityTest {

    @TempDir
    Path directory;

    @Test
    void lowersOnlyTheC2CompilerThreadsAndRestoresThemWithTheRest() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux's /proc");
        assumeTrue(
                Files.readAllLines(Path.of("/proc/self/status")).stream()
                        .anyMatch(line -> line.matches("Uid:\\s+\\d+\\s+0\\s.*")),
                "restoring a priority needs the superuser");
        Process jvm = startIdleJvm();
        try {
            awaitThread(jvm.pid(), "C2 Compiler");

            CpuPriority.lowerCompilerThreads(jvm.pid(), 19, new HashSet<>());

            Map<String, Set<Integer>> lowered = nicenessByThreadKind(jvm.pid());
            assertThat(lowered.get("C2 Compiler")).containsExactly(19);
            assertThat(lowered.get("C1 Compiler")).containsExactly(0);
            assertThat(lowered.get("VM Thread")).containsExactly(0);

            CpuPriority.set(jvm.pid(), 0);

            assertThat(nicenessByThreadKind(jvm.pid()).get("C2 Compiler")).containsExactly(0);
        } finally {
            jvm.destroyForcibly();
            jvm.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void returnsBeforeItsDeadlineOnceARealJvmsCompilersHaveGoneIdle() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux's /proc");
        // The source launcher compiles Idle.java with javac inside the JVM: its JIT compilers are busy, then idle.
        Process jvm = startIdleJvm();
        try {
            awaitThread(jvm.pid(), "C1 Compiler");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);

            CpuPriority.awaitCompilersQuiet(jvm.pid(), deadline);

            assertThat(System.nanoTime()).isLessThan(deadline);
            assertThat(ProcessFigures.compilerCpuTicks(jvm.pid()))
                    .as("the compilers' CPU, read from /proc")
                    .isPositive();
        } finally {
            jvm.destroyForcibly();
            jvm.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void keepsWaitingWhileTheCompilersAreBusyAndReturnsAfterTheFirstQuietWindow() {
        // 20 ticks a window is busy (two tenths of a core over half a second); 2 is quiet.
        long[] readings = {0, 20, 40, 60, 62, 200};
        AtomicInteger reads = new AtomicInteger();

        CpuPriority.awaitQuiet(
                () -> readings[reads.getAndIncrement()],
                Duration.ofMillis(1),
                System.nanoTime() + TimeUnit.MINUTES.toNanos(1));

        assertThat(reads).as("readings until the first quiet window").hasValue(5);
    }

    @Test
    void givesUpAtItsDeadlineWhileTheCompilersStayBusy() {
        AtomicLong ticks = new AtomicLong();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);

        CpuPriority.awaitQuiet(() -> ticks.getAndAdd(20), Duration.ofMillis(1), deadline);

        assertThat(System.nanoTime() - deadline)
                .as("returned at its deadline, not before")
                .isNotNegative();
        assertThat(ticks.get() / 20).as("readings").isGreaterThan(2);
    }

    @Test
    void returnsAtOnceWhenTheCompilersCpuIsUnknown() {
        AtomicInteger reads = new AtomicInteger();

        CpuPriority.awaitQuiet(
                () -> {
                    reads.incrementAndGet();
                    return -1;
                },
                Duration.ofSeconds(10),
                System.nanoTime() + TimeUnit.MINUTES.toNanos(1));

        assertThat(reads).hasValue(1);
    }

    /** A JVM that runs a one-line program from its source and then sleeps for a minute. */
    private Process startIdleJvm() throws IOException {
        Path source = Files.writeString(
                directory.resolve("Idle.java"),
                "class Idle { public static void main(String[] a) throws Exception { Thread.sleep(60_000); } }");
        return new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(), source.toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    /** Niceness (field 19 of a task's stat) by the start of its name, for the three kinds this test looks at. */
    private static Map<String, Set<Integer>> nicenessByThreadKind(long pid) throws IOException {
        Map<String, Set<Integer>> niceness = new HashMap<>();
        try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks.toList()) {
                String name = Files.readString(task.resolve("comm")).strip();
                String stat = Files.readString(task.resolve("stat"));
                // After the name in parentheses: state is field 3, so niceness (19) is the 17th from there.
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                for (String kind : List.of("C2 Compiler", "C1 Compiler", "VM Thread")) {
                    if (name.startsWith(kind)) {
                        niceness.computeIfAbsent(kind, k -> new HashSet<>()).add(Integer.parseInt(fields[16]));
                    }
                }
            }
        }
        return niceness;
    }

    private static void awaitThread(long pid, String name) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
                for (Path task : tasks.toList()) {
                    if (Files.readString(task.resolve("comm")).startsWith(name)) return;
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no thread " + name + " in " + pid);
    }
}
