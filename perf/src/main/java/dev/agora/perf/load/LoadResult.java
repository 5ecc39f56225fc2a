package dev.agora.perf.load;

import dev.agora.perf.stats.LatencyHistogram;
import dev.agora.perf.stats.LatencySummary;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Everything a closed-model load measured: latencies per operation, failures, raw samples, wall time. */
public record LoadResult(
        Map<String, LatencyHistogram> latencies,
        Map<String, Long> failures,
        Map<String, List<String>> failureExamples,
        List<Sample> samples,
        Duration wallTime) {

    static LoadResult merge(List<Recorder> recorders, Duration wallTime) {
        Map<String, LatencyHistogram> latencies = new LinkedHashMap<>();
        Map<String, Long> failures = new LinkedHashMap<>();
        List<Sample> samples = new ArrayList<>();
        Map<String, List<String>> examples = new LinkedHashMap<>();
        for (Recorder recorder : recorders) {
            recorder.failureExamples().forEach((operation, list) -> {
                List<String> merged = examples.computeIfAbsent(operation, name -> new ArrayList<>());
                for (String example : list) {
                    if (merged.size() < Recorder.FAILURE_EXAMPLES_PER_OPERATION) merged.add(example);
                }
            });
            recorder.latencies().forEach((operation, histogram) -> latencies
                    .computeIfAbsent(operation, name -> new LatencyHistogram())
                    .add(histogram));
            recorder.failures().forEach((operation, count) -> failures.merge(operation, count, Long::sum));
            samples.addAll(recorder.samples());
        }
        samples.sort(Comparator.comparingLong(Sample::startNanos));
        return new LoadResult(latencies, failures, examples, samples, wallTime);
    }

    public LatencyHistogram latency(String operation) {
        return latencies.getOrDefault(operation, new LatencyHistogram());
    }

    public LatencySummary summary(String operation) {
        return latency(operation).summarize(wallTime);
    }

    /** All operations' latencies together. */
    public LatencyHistogram all() {
        LatencyHistogram all = new LatencyHistogram();
        latencies.values().forEach(all::add);
        return all;
    }

    public long failures(String operation) {
        return failures.getOrDefault(operation, 0L);
    }

    public long totalFailures() {
        return failures.values().stream().mapToLong(Long::longValue).sum();
    }

    public List<Sample> samples(String operation) {
        return samples.stream().filter(s -> s.operation().equals(operation)).toList();
    }
}
