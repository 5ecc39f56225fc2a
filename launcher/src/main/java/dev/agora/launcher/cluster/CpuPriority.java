package dev.agora.launcher.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Lowers and restores the CPU priority of every thread of a process (Linux {@code renice} per task), best effort.
 *
 * <p>Used while a replica restarts: in a deployment it would start on its own machine, but here its JIT and class
 * loading compete for the same two cores as the survivors, which then miss their timeouts. Starting it at a lower
 * priority keeps the survivors' behaviour what it would be. Where renice is missing or not permitted, this does
 * nothing.
 */
final class CpuPriority {

    static final int RESTART_NICENESS = 10;

    private CpuPriority() {}

    static void set(long pid, int niceness) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        if (pid <= 0 || !Files.isDirectory(tasks)) return;
        List<String> command = new ArrayList<>(List.of("renice", "-n", Integer.toString(niceness), "-p"));
        try (var threads = Files.list(tasks)) {
            threads.map(task -> task.getFileName().toString()).forEach(command::add);
            Process renice = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            renice.waitFor(5, TimeUnit.SECONDS);
        } catch (IOException | java.io.UncheckedIOException e) {
            // The process may just have exited, or there is no renice here: priorities stay as they were.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
