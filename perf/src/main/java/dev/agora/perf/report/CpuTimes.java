package dev.agora.perf.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The aggregate {@code cpu} line of /proc/stat: time since boot in clock ticks, summed over all cores, by what the
 * cores did. Two readings tell how much of an experiment's CPU time the hypervisor took (steal): on a VM whose host
 * takes a core now and then, that is what makes one window's figures 25-50% off another's.
 */
public record CpuTimes(long user, long nice, long system, long idle, long iowait, long irq, long softirq, long steal) {

    private static final Path PROC_STAT = Path.of("/proc/stat");

    /** Now; empty where there is no /proc/stat (not Linux). */
    public static Optional<CpuTimes> read() {
        try (Stream<String> lines = Files.lines(PROC_STAT)) {
            return lines.filter(line -> line.startsWith("cpu ")).findFirst().map(CpuTimes::parse);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Parses {@code cpu user nice system idle iowait irq softirq steal guest guest_nice}. Guest time is already
     * counted in user (and guest_nice in nice), so the last two columns are left out.
     */
    static CpuTimes parse(String line) {
        String[] fields = line.strip().split("\\s+");
        if (!fields[0].equals("cpu") || fields.length < 9) {
            throw new IllegalArgumentException("not the aggregate cpu line of /proc/stat: " + line);
        }
        return new CpuTimes(
                Long.parseLong(fields[1]),
                Long.parseLong(fields[2]),
                Long.parseLong(fields[3]),
                Long.parseLong(fields[4]),
                Long.parseLong(fields[5]),
                Long.parseLong(fields[6]),
                Long.parseLong(fields[7]),
                Long.parseLong(fields[8]));
    }

    long total() {
        return busy() + idle + iowait + steal;
    }

    /** Time the cores ran anything, for anyone: this box's own load, ours or another agent's. */
    long busy() {
        return user + nice + system + irq + softirq;
    }

    /**
     * Shares of all CPU time between two readings, in percent.
     *
     * @param stealPercent taken by the hypervisor for other guests
     * @param busyPercent running this box's own work
     */
    public record Shares(double stealPercent, double busyPercent) {

        /** Where /proc/stat could not be read at either end. */
        public static final Shares UNKNOWN = new Shares(Double.NaN, Double.NaN);

        public static Shares between(Optional<CpuTimes> start, Optional<CpuTimes> end) {
            if (start.isEmpty() || end.isEmpty()) return UNKNOWN;
            return between(start.get(), end.get());
        }

        public static Shares between(CpuTimes start, CpuTimes end) {
            long total = end.total() - start.total();
            if (total <= 0) return UNKNOWN;
            return new Shares(100.0 * (end.steal - start.steal) / total, 100.0 * (end.busy() - start.busy()) / total);
        }
    }
}
