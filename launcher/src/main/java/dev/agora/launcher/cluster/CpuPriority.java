package dev.agora.launcher.cluster;

import dev.agora.local.process.ProcessFigures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Lowers and restores the CPU priority of every thread of a process (Linux {@code renice} per task), best effort.
 *
 * <p>Used while a replica restarts: in a deployment it would start on its own machine, but here its JIT and class
 * loading compete for the same two cores as the survivors, which then miss their timeouts. Starting it at a lower
 * priority keeps the survivors' behaviour what it would be. Also while a cluster's second replicas start, so that the
 * first replicas serve their first requests at full speed. Either way for 30 s at most ({@code
 * ClusterStarter.LOW_PRIORITY_AT_MOST}): beside other busy work (a CI build testing two modules at once) a process at
 * this priority barely runs, and a restart under the failover tests' load took two and a half minutes instead of
 * seconds. And for the C2 compiler threads alone while an instance of the launcher's command starts ({@code
 * ClusterStarter.COMPILERS_BEHIND}). Where renice is missing or not permitted, this does
 * nothing; and only a superuser may raise a priority again (Linux needs CAP_SYS_NICE for it), so for anyone else it
 * does not lower one either: an instance would otherwise run at the low priority for good.
 */
final class CpuPriority {

    static final int RESTART_NICENESS = 10;

    private CpuPriority() {}

    /** Whether priorities lowered here can be restored: the launcher runs as the superuser. */
    private static final boolean RESTORABLE = runsAsSuperuser();

    static void set(long pid, int niceness) {
        if (!RESTORABLE) return;
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        if (pid <= 0 || !Files.isDirectory(tasks)) return;
        try (var threads = Files.list(tasks)) {
            renice(niceness, threads.map(task -> task.getFileName().toString()).toList());
        } catch (IOException | java.io.UncheckedIOException e) {
            // The process may just have exited: priorities stay as they were.
        }
    }

    /**
     * Lowers the priority of the process's C2 compiler threads that are not in {@code lowered} yet, and adds them
     * there. The JVM adds compiler threads as its queues grow, so a caller repeats this while the process starts.
     */
    static void lowerCompilerThreads(long pid, int niceness, Set<String> lowered) {
        if (!RESTORABLE) return;
        try (var threads = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            List<String> compilers = threads.filter(
                            task -> !lowered.contains(task.getFileName().toString()))
                    .filter(CpuPriority::isC2CompilerThread)
                    .map(task -> task.getFileName().toString())
                    .toList();
            if (compilers.isEmpty()) return;
            renice(niceness, compilers);
            lowered.addAll(compilers);
        } catch (IOException | java.io.UncheckedIOException e) {
            // The process may just have exited: priorities stay as they were.
        }
    }

    /** How long the compilers are watched at a time, and the clock ticks (10 ms each) of a quiet stretch: a tenth. */
    private static final Duration QUIET_WINDOW = Duration.ofMillis(500);

    private static final long QUIET_TICKS = 5;

    /**
     * Waits until the process's JIT compiler threads (C1 and C2) used at most a tenth of a core over half a second, at
     * most until {@code deadline} (a {@link System#nanoTime()}); at once where /proc does not tell, or when interrupted.
     */
    static void awaitCompilersQuiet(long pid, long deadline) {
        awaitQuiet(() -> ProcessFigures.compilerCpuTicks(pid), QUIET_WINDOW, deadline);
    }

    /**
     * The rule of {@link #awaitCompilersQuiet}: reads {@code ticks} (clock ticks used so far, negative when unknown)
     * every {@code window} until one window added at most {@link #QUIET_TICKS}, or {@code deadline} passed.
     */
    static void awaitQuiet(LongSupplier ticks, Duration window, long deadline) {
        long before = ticks.getAsLong();
        while (before >= 0 && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(window);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            long now = ticks.getAsLong();
            if (now < 0 || now - before <= QUIET_TICKS) return;
            before = now;
        }
    }

    /** Sets the niceness of these threads (task ids); where there is no renice, nothing changes. */
    private static void renice(int niceness, List<String> threads) {
        List<String> command = new ArrayList<>(List.of("renice", "-n", Integer.toString(niceness), "-p"));
        command.addAll(threads);
        try {
            Process renice = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            renice.waitFor(5, TimeUnit.SECONDS);
        } catch (IOException e) {
            // No renice here: priorities stay as they were.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** HotSpot names them "C2 CompilerThread<n>", which the kernel cuts to 15 characters. */
    private static boolean isC2CompilerThread(Path task) {
        try {
            return Files.readString(task.resolve("comm")).startsWith("C2 Compiler");
        } catch (IOException | java.io.UncheckedIOException e) {
            return false;
        }
    }

    private static boolean runsAsSuperuser() {
        try {
            // "Uid:" then the real, effective, saved and file-system user ids.
            return Files.readAllLines(Path.of("/proc/self/status")).stream()
                    .filter(line -> line.startsWith("Uid:"))
                    .map(line -> line.split("\\s+"))
                    .anyMatch(ids -> ids.length > 2 && ids[2].equals("0"));
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
