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
        LoadResult all = pooled(recorders.stream()
                .map(recorder -> new LoadResult(
                        recorder.latencies(),
                        recorder.failures(),
                        recorder.failureExamples(),
                        recorder.samples(),
                        Duration.ZERO))
                .toList());
        return new LoadResult(all.latencies, all.failures, all.failureExamples, all.samples, wallTime);
    }

    /** Several loads as one: latencies and failures added up, samples in time order, wall times summed. */
    public static LoadResult pooled(List<LoadResult> results) {
        Map<String, LatencyHistogram> latencies = new LinkedHashMap<>();
        Map<String, Long> failures = new LinkedHashMap<>();
        Map<String, List<String>> examples = new LinkedHashMap<>();
        List<Sample> samples = new ArrayList<>();
        Duration wallTime = Duration.ZERO;
        for (LoadResult result : results) {
            result.latencies.forEach((operation, histogram) -> latencies
                    .computeIfAbsent(operation, name -> new LatencyHistogram())
                    .add(histogram));
            result.failures.forEach((operation, count) -> failures.merge(operation, count, Long::sum));
            result.failureExamples.forEach((operation, list) -> {
                List<String> merged = examples.computeIfAbsent(operation, name -> new ArrayList<>());
                for (String example : list) {
                    if (merged.size() < Recorder.FAILURE_EXAMPLES_PER_OPERATION) merged.add(example);
                }
            });
            samples.addAll(result.samples);
            wallTime = wallTime.plus(result.wallTime);
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
