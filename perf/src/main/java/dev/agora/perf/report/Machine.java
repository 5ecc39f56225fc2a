package dev.agora.perf.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** The hardware and software a report's figures come from. */
public record Machine(String cpuModel, int cores, String memory, String operatingSystem, String jdk) {

    public static Machine current() {
        return new Machine(
                readCpuModel(),
                Runtime.getRuntime().availableProcessors(),
                readMemory(),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " ("
                        + System.getProperty("os.arch") + ")",
                System.getProperty("java.vm.vendor") + " " + System.getProperty("java.vm.name") + " "
                        + System.getProperty("java.runtime.version"));
    }

    /** "AMD EPYC, 2 cores, 23.4 GiB, Linux 6.8 (amd64), JDK ..." for a one-line statement in a headline. */
    public String oneLine() {
        return cpuModel + ", " + cores + " cores, " + memory + " RAM, " + operatingSystem + ", " + jdk;
    }

    /** The 1-minute load average, from /proc/loadavg; NaN where there is none. */
    public static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        }
    }

    private static String readCpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name"))
                    return line.substring(line.indexOf(':') + 1).trim();
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: fall through to the architecture
        }
        return System.getProperty("os.arch");
    }

    private static String readMemory() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return String.format(Locale.ROOT, "%.1f GiB", os.getTotalMemorySize() / (1024.0 * 1024 * 1024));
        }
        return "unknown";
    }
}
