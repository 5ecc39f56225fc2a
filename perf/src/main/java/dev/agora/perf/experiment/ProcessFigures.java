package dev.agora.perf.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What Linux tells about a process in {@code /proc}: CPU time, resident memory, threads and open sockets. Every
 * reading is -1 when the process is gone or the platform has no {@code /proc}.
 */
public final class ProcessFigures {

    /** Linux reports process times in clock ticks of 1/100 s on every platform we run on. */
    public static final long NANOS_PER_TICK = 10_000_000L;

    private ProcessFigures() {}

    /** utime + stime (and the reaped children's cutime + cstime) from /proc/PID/stat, in clock ticks. */
    public static long cpuTicks(long pid, boolean withReapedChildren) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long own = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            return withReapedChildren ? own + Long.parseLong(fields[13]) + Long.parseLong(fields[14]) : own;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * CPU ticks of a process and everything below it: its own and its reaped children's time, plus each live
     * descendant's (with its reaped children). A child that exits between two readings moves its time into its
     * parent's reaped-children count, so the sum only grows, e.g. for a PostgreSQL postmaster and its backends.
     * -1 when the process is gone.
     */
    public static long treeCpuTicks(long pid) {
        long total = cpuTicks(pid, true);
        if (total < 0) return -1;
        var process = ProcessHandle.of(pid);
        if (process.isEmpty()) return -1;
        try (var descendants = process.get().descendants()) {
            for (ProcessHandle descendant : (Iterable<ProcessHandle>) descendants::iterator) {
                long ticks = cpuTicks(descendant.pid(), true);
                if (ticks > 0) total += ticks; // gone while listing: its time is in its parent's reaped count
            }
        }
        return total;
    }

    /** Resident set size in bytes ({@code VmRSS}). */
    public static long residentBytes(long pid) {
        long kib = statusField(pid, "VmRSS:");
        return kib < 0 ? -1 : kib * 1024;
    }

    public static long threads(long pid) {
        return statusField(pid, "Threads:");
    }

    /** Open file descriptors that are sockets (listening, connected, or to PostgreSQL). */
    public static long sockets(long pid) {
        Path fds = Path.of("/proc", Long.toString(pid), "fd");
        try (var entries = Files.list(fds)) {
            return entries.filter(fd -> {
                        try {
                            return Files.readSymbolicLink(fd).toString().startsWith("socket:");
                        } catch (IOException | UnsupportedOperationException e) {
                            return false; // closed while listing
                        }
                    })
                    .count();
        } catch (IOException e) {
            return -1;
        }
    }

    public static String commandLine(long pid) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "cmdline"))
                    .replace('\0', ' ')
                    .strip();
        } catch (IOException e) {
            return "";
        }
    }

    /** The first number of a {@code /proc/PID/status} line such as {@code VmRSS:   123456 kB}. */
    private static long statusField(long pid, String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith(field)) {
                    return Long.parseLong(line.substring(field.length()).strip().split("\\s+")[0]);
                }
            }
            return -1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
