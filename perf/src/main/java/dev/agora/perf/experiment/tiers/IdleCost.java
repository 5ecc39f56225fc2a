package dev.agora.perf.experiment.tiers;

import dev.agora.local.process.ProcessFigures;
import dev.agora.perf.experiment.ServerMetrics;
import dev.agora.perf.experiment.Target;
import dev.agora.perf.load.HttpDriver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * What an idle instance costs the machine: resident memory, live heap, threads, open sockets and the CPU it uses
 * while nobody calls it. Read for every instance of a tier over one quiet window, so that "16 frontends fit" is a
 * figure rather than a hope.
 */
record IdleCost(
        String instance, double residentMiB, double heapUsedMiB, long threads, long sockets, double cpuPercent) {

    private static final double MIB = 1024.0 * 1024.0;

    /** Every instance of {@code service}, over {@code window} in which the caller sends no requests. */
    static List<IdleCost> measure(Target target, HttpDriver http, String service, Duration window)
            throws InterruptedException {
        List<String> names = target.instanceNames(service);
        List<String> urls = target.urls(service);
        long[] pids = names.stream().mapToLong(target::pid).toArray();
        long[] before = new long[pids.length];
        for (int i = 0; i < pids.length; i++) before[i] = ProcessFigures.cpuTicks(pids[i], false);
        long started = System.nanoTime();
        Thread.sleep(window);
        double elapsedNanos = System.nanoTime() - started;
        List<IdleCost> costs = new ArrayList<>();
        for (int i = 0; i < pids.length; i++) {
            long after = ProcessFigures.cpuTicks(pids[i], false);
            double cpu = before[i] < 0 || after < 0
                    ? Double.NaN
                    : 100.0 * (after - before[i]) * ProcessFigures.NANOS_PER_TICK / elapsedNanos;
            costs.add(new IdleCost(
                    names.get(i),
                    ProcessFigures.residentBytes(pids[i]) / MIB,
                    heapUsed(http, urls.get(i)) / MIB,
                    ProcessFigures.threads(pids[i]),
                    ProcessFigures.sockets(pids[i]),
                    cpu));
        }
        return costs;
    }

    /** Bytes of heap in use, from the instance's own metrics (after the scrape, not after a GC). */
    private static double heapUsed(HttpDriver http, String url) {
        return ServerMetrics.scrape(http, url).stream()
                .filter(sample -> sample.isNamed("jvm_memory_used_bytes") && sample.hasLabels("area=\"heap\""))
                .mapToDouble(ServerMetrics.Sample::value)
                .sum();
    }

    static double mean(List<IdleCost> costs, ToDoubleFunction<IdleCost> figure) {
        return costs.stream().mapToDouble(figure).average().orElse(Double.NaN);
    }

    static double max(List<IdleCost> costs, ToDoubleFunction<IdleCost> figure) {
        return costs.stream().mapToDouble(figure).max().orElse(Double.NaN);
    }

    static double total(List<IdleCost> costs, ToDoubleFunction<IdleCost> figure) {
        return costs.stream().mapToDouble(figure).sum();
    }
}
