package dev.agora.perf.report;

import static dev.agora.perf.stats.Numbers.format;

import java.util.Optional;

/**
 * How busy the machine was over one experiment: other work on the box, and on a VM the hypervisor taking CPU time
 * for other guests (steal), both make figures of one window slower than those of another.
 *
 * @param loadAverageStart 1-minute load average at the start, NaN where there is none
 * @param loadAverageEnd the same at the end
 * @param cpu shares of all CPU time between start and end, unknown where /proc/stat is missing
 */
public record MachineLoad(double loadAverageStart, double loadAverageEnd, CpuTimes.Shares cpu) {

    /** One sample of the load average and the CPU time counters. */
    public record Reading(double loadAverage, Optional<CpuTimes> cpuTimes) {

        public static Reading now() {
            return new Reading(Machine.loadAverage(), CpuTimes.read());
        }
    }

    public static MachineLoad between(Reading start, Reading end) {
        return new MachineLoad(
                start.loadAverage(), end.loadAverage(), CpuTimes.Shares.between(start.cpuTimes(), end.cpuTimes()));
    }

    /** One paragraph for the report, on a machine with the given number of cores. */
    public String describe(int cores) {
        String shares = Double.isNaN(cpu.stealPercent())
                ? "CPU time shares unknown (no /proc/stat: not Linux)."
                : "Of all CPU time over the experiment the box was busy " + format(cpu.busyPercent())
                        + "% (user + nice + system + irq + softirq) and the hypervisor took "
                        + format(cpu.stealPercent())
                        + "% (steal, /proc/stat): time this VM was ready to run but got no core, which slows"
                        + " everything measured in that window.";
        return "Machine load (1-minute load average) at start / end of this experiment: " + format(loadAverageStart)
                + " / " + format(loadAverageEnd) + " on " + cores + " cores; the cluster and the load generator "
                + "account for part of it, anything above that is other work sharing the machine. " + shares;
    }
}
