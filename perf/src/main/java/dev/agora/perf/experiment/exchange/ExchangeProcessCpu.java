package dev.agora.perf.experiment.exchange;

import dev.agora.local.process.ProcessFigures;
import java.time.Instant;

/**
 * CPU time of the three processes that share the machine in an exchange run: the exchange, its PostgreSQL
 * (postmaster, backends, WAL writer: everything below the postmaster) and this JVM, the load generator. On two
 * cores, what each spends per request says where the next request per second has to come from.
 */
final class ExchangeProcessCpu {

    private final long exchangePid;
    private final long postmasterPid;

    private ExchangeProcessCpu(long exchangePid, long postmasterPid) {
        this.exchangePid = exchangePid;
        this.postmasterPid = postmasterPid;
    }

    /**
     * @param clusterStarted the postmaster is the newest one started since then that serves an {@code exchange}
     *     database (other agents' clusters may run on the machine too); -1 when none is found
     */
    static ExchangeProcessCpu of(long exchangePid, Instant clusterStarted) {
        long postmaster = ProcessHandle.allProcesses()
                .filter(p -> p.info().command().orElse("").endsWith("/postgres"))
                .filter(p -> p.info()
                        .startInstant()
                        .map(s -> !s.isBefore(clusterStarted))
                        .orElse(false))
                .filter(p -> p.children().anyMatch(ExchangeProcessCpu::servesExchange))
                .max((a, b) -> a.info()
                        .startInstant()
                        .get()
                        .compareTo(b.info().startInstant().get()))
                .map(ProcessHandle::pid)
                .orElse(-1L);
        return new ExchangeProcessCpu(exchangePid, postmaster);
    }

    private static boolean servesExchange(ProcessHandle backend) {
        return ProcessFigures.commandLine(backend.pid()).startsWith("postgres: postgres exchange ");
    }

    Sample sample() {
        long database = -1;
        if (postmasterPid > 0) {
            // Backends that ended count through the postmaster's reaped-children times.
            database = ProcessFigures.cpuTicks(postmasterPid, true);
            database += ProcessHandle.of(postmasterPid).stream()
                    .flatMap(ProcessHandle::children)
                    .mapToLong(child -> Math.max(0, ProcessFigures.cpuTicks(child.pid(), false)))
                    .sum();
        }
        return new Sample(
                ProcessFigures.cpuTicks(exchangePid, false) * ProcessFigures.NANOS_PER_TICK,
                database < 0 ? -1 : database * ProcessFigures.NANOS_PER_TICK,
                ProcessFigures.cpuTicks(ProcessHandle.current().pid(), false) * ProcessFigures.NANOS_PER_TICK);
    }

    /** CPU used so far, in nanoseconds, -1 when unknown. */
    record Sample(long exchange, long postgres, long loadGenerator) {

        /** Microseconds per request of each process between {@code earlier} and this sample. */
        PerRequest since(Sample earlier, long requests) {
            return new PerRequest(
                    perRequest(earlier.exchange, exchange, requests),
                    perRequest(earlier.postgres, postgres, requests),
                    perRequest(earlier.loadGenerator, loadGenerator, requests));
        }

        private static double perRequest(long before, long after, long requests) {
            return before < 0 || after < 0 || requests == 0 ? Double.NaN : (after - before) / 1e3 / requests;
        }
    }

    record PerRequest(double exchange, double postgres, double loadGenerator) {}
}
