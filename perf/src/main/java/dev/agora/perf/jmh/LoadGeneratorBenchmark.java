package dev.agora.perf.jmh;

import dev.agora.perf.load.ServerTiming;
import dev.agora.perf.stats.LatencyHistogram;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * What the load generator itself adds to every request it times: recording a latency into a histogram and
 * parsing the frontend's Server-Timing header. Both must be far below the microsecond latencies measured.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class LoadGeneratorBenchmark {

    private final LatencyHistogram histogram = new LatencyHistogram();

    @Benchmark
    public LatencyHistogram recordLatency() {
        histogram.recordNanos(ThreadLocalRandom.current().nextLong(100_000, 50_000_000));
        return histogram;
    }

    @Benchmark
    public ServerTiming parseServerTiming() {
        return ServerTiming.parse("catalog;dur=0.812, order;dur=2.104, cache;desc=hit");
    }
}
