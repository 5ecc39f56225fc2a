package dev.agora.local.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * What Linux tells about a process in {@code /proc}: CPU time, resident memory, threads and open sockets. Every
 * reading is -1 when the process is gone or the platform has no {@code /proc}.
 */
public final class ProcessFigures {

    /** Linux reports process times in clock ticks of 1/100 s on every platform we run on. */
    public static final long NANOS_PER_TICK = 10_000_000L;

    private static final Pattern COMPILER_THREAD = Pattern.compile("C[12] CompilerThre");

    private ProcessFigures() {}

    /** utime + stime (and the reaped children's cutime + cstime) from /proc/PID/stat, in clock ticks. */
    public static long cpuTicks(long pid, boolean withReapedChildren) {
        try {
            String[] fields = fieldsAfterName(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
            long own = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            return withReapedChildren ? own + Long.parseLong(fields[13]) + Long.parseLong(fields[14]) : own;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * The fields of a {@code stat} file after the command name (field 2), which may hold spaces and parentheses: counted
     * from its last closing parenthesis, so state is [0], utime [11] and stime [12].
     */
    private static String[] fieldsAfterName(String stat) {
        return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    }

    /**
     * utime + stime of a JVM's JIT compiler threads (HotSpot's {@code C1 CompilerThread<n>} and
     * {@code C2 CompilerThread<n>}, which Linux shows cut to 15 characters), in clock ticks: the part of a JVM's CPU
     * that goes to compiling rather than to the work it serves. A thread the JVM retired meanwhile is no longer
     * counted, so take two readings close together. -1 when the process is gone.
     */
    public static long compilerCpuTicks(long pid) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        try (var threads = Files.list(tasks)) {
            long total = 0;
            for (Path thread : (Iterable<Path>) threads::iterator) {
                try {
                    String stat = Files.readString(thread.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    if (!COMPILER_THREAD.matcher(name).lookingAt()) continue;
                    String[] fields = fieldsAfterName(stat);
                    total += Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                } catch (IOException | RuntimeException gone) {
                    // the thread ended while listing
                }
            }
            return total;
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
