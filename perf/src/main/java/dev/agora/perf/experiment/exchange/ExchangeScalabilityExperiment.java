package dev.agora.perf.experiment.exchange;

import static dev.agora.perf.stats.Numbers.format;

import dev.agora.perf.experiment.ClusterShape;
import dev.agora.perf.experiment.Experiment;
import dev.agora.perf.experiment.ExperimentContext;
import dev.agora.perf.experiment.Seeds;
import dev.agora.perf.experiment.Target;
import dev.agora.perf.report.Chart;
import dev.agora.perf.report.Report;
import dev.agora.perf.report.Table;
import dev.agora.perf.stats.Comparison;
import dev.agora.perf.stats.LatencyHistogram;
import dev.agora.perf.stats.RunStatistics;
import dev.agora.perf.stats.TenMillisecondBuckets;
import dev.agora.perf.xml.ExchangeReplies;
import dev.agora.perf.xml.ExchangeRequests;
import dev.agora.perf.xml.ExchangeXmlClient;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Seed 001: 1000 random requests per run, ten runs, half creates (account + position) and half transactions
 * (order + query + cancel) over the XML protocol; latency in 10 ms buckets and throughput; sequential and
 * concurrent clients; the exchange on one core vs two.
 */
public final class ExchangeScalabilityExperiment implements Experiment {

    private static final double SEED_THROUGHPUT_2_CORES = 39.29;
    private static final double SEED_THROUGHPUT_4_CORES = 49.41;
    private static final double SEED_TOTAL_SECONDS_2_CORES = 28.334;

    @Override
    public String name() {
        return "exchange-scalability";
    }

    @Override
    public String seed() {
        return "001";
    }

    @Override
    public String workload() {
        return "1000 random XML requests x 10 runs (creates: account + position; transactions: order + query + "
                + "cancel), sequential and 8/16/32 concurrent clients, exchange on 1 vs 2 cores";
    }

    @Override
    public String seedFigure() {
        return "39.29 req/s (2 cores), 49.41 req/s (4 cores); latency mode 10-30 ms";
    }

    private record Config(int cores, int clients) {
        String label() {
            return cores + (cores == 1 ? " core, " : " cores, ") + (clients == 1 ? "sequential" : clients + " clients");
        }
    }

    private record Outcome(
            Config config,
            RunStatistics throughput,
            RunStatistics totalSeconds,
            LatencyHistogram latencies,
            TenMillisecondBuckets buckets,
            long failures,
            long successElements,
            long errorElements,
            List<Double> throughputPerRun) {}

    @Override
    public Report run(ExperimentContext context) throws Exception {
        Instant started = Instant.now();
        int requests = context.count(1000, 300);
        int runs = context.count(10, 2);
        List<Integer> clientCounts = context.choose(List.of(1, 8, 16, 32), List.of(1, 16));
        Report.Builder report = Report.builder(name(), "Exchange matching server: scalability")
                .seed(seed(), Seeds.HARDWARE_001)
                .quick(context.quick());
        List<Outcome> outcomes = new ArrayList<>();
        List<String> pinning = new ArrayList<>();
        for (int cores : List.of(2, 1)) {
            ClusterShape shape = ClusterShape.exchangeOnly();
            if (cores == 1) shape = shape.with("exchange", "JAVA_TOOL_OPTIONS", "-XX:ActiveProcessorCount=1");
            Target target = context.cluster(shape);
            if (cores == 1) pinning.add(pinToFirstCore(target, context));
            ExchangeXmlClient client =
                    new ExchangeXmlClient("127.0.0.1", target.exchangeTcpPort(), Duration.ofSeconds(30));
            List<Long> openedOrders = ExchangeRequests.sharedOrderIds();
            runOnce(client, context.count(300, 100), 4, 7L * cores, openedOrders); // warm-up, not counted
            for (int clients : clientCounts) {
                Config config = new Config(cores, clients);
                Outcome outcome = measure(config, client, requests, runs, openedOrders);
                outcomes.add(outcome);
                context.log("  exchange " + config.label() + ": "
                        + format(outcome.throughput().mean())
                        + " req/s, p50 " + format(outcome.latencies().percentileMillis(50)) + " ms, p99 "
                        + format(outcome.latencies().percentileMillis(99)) + " ms, mode "
                        + outcome.buckets().mode().label() + " ms");
            }
        }
        return report(report, outcomes, requests, runs, pinning)
                .timing(started, Duration.between(started, Instant.now()))
                .build();
    }

    private static Outcome measure(
            Config config, ExchangeXmlClient client, int requests, int runs, List<Long> openedOrders)
            throws InterruptedException {
        LatencyHistogram latencies = new LatencyHistogram();
        TenMillisecondBuckets buckets = new TenMillisecondBuckets();
        List<Double> throughputs = new ArrayList<>();
        List<Double> totals = new ArrayList<>();
        long failures = 0;
        long successes = 0;
        long errors = 0;
        for (int run = 0; run < runs; run++) {
            RunResult result =
                    runOnce(client, requests, config.clients(), 1_000L * run + config.clients(), openedOrders);
            latencies.add(result.latencies());
            buckets.add(result.buckets());
            throughputs.add(requests / result.seconds());
            totals.add(result.seconds());
            failures += result.failures();
            successes += result.successElements();
            errors += result.errorElements();
        }
        return new Outcome(
                config,
                RunStatistics.of(throughputs),
                RunStatistics.of(totals),
                latencies,
                buckets,
                failures,
                successes,
                errors,
                throughputs);
    }

    private record RunResult(
            double seconds,
            LatencyHistogram latencies,
            TenMillisecondBuckets buckets,
            long failures,
            long successElements,
            long errorElements) {}

    /** One run: {@code requests} split over {@code clients} threads, each sending one request at a time. */
    private static RunResult runOnce(
            ExchangeXmlClient client, int requests, int clients, long seed, List<Long> openedOrders)
            throws InterruptedException {
        LatencyHistogram[] perClient = new LatencyHistogram[clients];
        TenMillisecondBuckets buckets = new TenMillisecondBuckets();
        AtomicLong failures = new AtomicLong();
        AtomicLong successes = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        long begin = System.nanoTime();
        for (int c = 0; c < clients; c++) {
            int share = requests / clients + (c < requests % clients ? 1 : 0);
            LatencyHistogram histogram = perClient[c] = new LatencyHistogram();
            ExchangeRequests generator = new ExchangeRequests(seed * 31 + c, 500, openedOrders);
            threads.add(Thread.ofPlatform().name("exchange-client-" + c).start(() -> {
                for (int i = 0; i < share; i++) {
                    String request = generator.next();
                    long start = System.nanoTime();
                    try {
                        String reply = client.send(request);
                        long latency = System.nanoTime() - start;
                        histogram.recordNanos(latency);
                        buckets.recordNanos(latency);
                        if (!ExchangeReplies.isResults(reply)) failures.incrementAndGet();
                        ExchangeReplies.Outcomes outcomes = ExchangeReplies.outcomes(reply);
                        successes.addAndGet(outcomes.successes());
                        errors.addAndGet(outcomes.errors());
                        generator.learnFrom(reply);
                    } catch (IOException e) {
                        long latency = System.nanoTime() - start;
                        histogram.recordNanos(latency);
                        buckets.recordNanos(latency);
                        failures.incrementAndGet();
                    }
                }
            }));
        }
        for (Thread thread : threads) thread.join();
        double seconds = (System.nanoTime() - begin) / 1e9;
        LatencyHistogram all = new LatencyHistogram();
        for (LatencyHistogram histogram : perClient) all.add(histogram);
        return new RunResult(seconds, all, buckets, failures.get(), successes.get(), errors.get());
    }

    /** Pins every thread of the exchange JVM (and so every thread it starts later) to CPU 0. */
    private static String pinToFirstCore(Target target, ExperimentContext context) throws IOException {
        String exchange = target.instanceNames("exchange").getFirst();
        long pid = target.pid(exchange);
        Process taskset = new ProcessBuilder("taskset", "-a", "-cp", "0", Long.toString(pid))
                .redirectErrorStream(true)
                .start();
        String output;
        try {
            output = new String(taskset.getInputStream().readAllBytes()).strip();
            if (!taskset.waitFor(10, TimeUnit.SECONDS) || taskset.exitValue() != 0) {
                throw new IllegalStateException("taskset failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        context.log("  pinned exchange pid " + pid + " to CPU 0");
        return "exchange pid " + pid + " pinned with `taskset -a -cp 0` (all threads), started with "
                + "`-XX:ActiveProcessorCount=1` so the JVM sizes its GC and pools for one CPU";
    }

    private static Report.Builder report(
            Report.Builder report, List<Outcome> outcomes, int requests, int runs, List<String> pinning) {
        Outcome sequentialTwo = find(outcomes, 2, 1);
        Outcome sequentialOne = find(outcomes, 1, 1);
        Outcome bestTwo = outcomes.stream()
                .filter(o -> o.config().cores() == 2)
                .max((a, b) ->
                        Double.compare(a.throughput().mean(), b.throughput().mean()))
                .orElse(sequentialTwo);
        Comparison sequential = Comparison.higherIsBetter(
                "throughput, sequential, 2 cores",
                "req/s",
                SEED_THROUGHPUT_2_CORES,
                sequentialTwo.throughput().mean());
        report.compare(sequential);
        report.compare(Comparison.higherIsBetter(
                "throughput, best concurrency (" + bestTwo.config().clients() + " clients), 2 cores vs seed 4-core VM",
                "req/s",
                SEED_THROUGHPUT_4_CORES,
                bestTwo.throughput().mean()));
        report.compare(Comparison.higherIsBetter(
                "throughput, sequential, 1 core vs seed 2-core VM",
                "req/s",
                SEED_THROUGHPUT_2_CORES,
                sequentialOne.throughput().mean()));
        report.compare(Comparison.lowerIsBetter(
                "total time for " + requests + " requests, sequential, 2 cores (seed: 1000)",
                "s",
                SEED_TOTAL_SECONDS_2_CORES * requests / 1000.0,
                sequentialTwo.totalSeconds().mean()));
        report.compare(Comparison.lowerIsBetter(
                "mode latency bucket upper bound, sequential, 2 cores",
                "ms",
                30,
                (sequentialTwo.buckets().mode().index() + 1) * 10.0));
        report.headline("Sequential throughput on 2 cores "
                + format(sequentialTwo.throughput().mean())
                + " req/s vs seed 39.29 req/s (2-core VM): "
                + sequential.verdict() + "; latency mode "
                + sequentialTwo.buckets().mode().label() + " ms vs seed (20, 30] ms");

        Table.Builder throughput = Table.with(
                "configuration",
                "runs",
                "mean req/s",
                "stddev",
                "min",
                "max",
                "mean s per run",
                "failures",
                "reply elements ok/error");
        for (Outcome o : outcomes) {
            throughput.row(
                    o.config().label(),
                    o.throughput().runs(),
                    format(o.throughput().mean()),
                    format(o.throughput().standardDeviation()),
                    format(o.throughput().min()),
                    format(o.throughput().max()),
                    format(o.totalSeconds().mean()),
                    o.failures(),
                    o.successElements() + "/" + o.errorElements());
            report.latency(
                    o.config().label(),
                    o.latencies()
                            .summarize(Duration.ofNanos(Math.round(
                                    o.totalSeconds().mean() * o.throughput().runs() * 1e9))),
                    o.failures());
        }
        report.section(
                "Throughput per configuration",
                "Each run sends " + requests + " random requests (half creates, half transactions), split evenly over "
                        + "the clients; throughput = requests / wall time of the run; " + runs + " runs per "
                        + "configuration, after one uncounted warm-up run. Reply elements: created/opened/status/"
                        + "canceled count as ok, error as error (random ids make some requests fail by design, as "
                        + "in the seed).",
                throughput.build());

        List<String> header = new ArrayList<>(List.of("bucket (ms)"));
        outcomes.forEach(o -> header.add(o.config().label()));
        int buckets = outcomes.stream()
                .mapToInt(o -> o.buckets().buckets().size())
                .max()
                .orElse(6);
        Table.Builder histogram = Table.with(header.toArray(String[]::new));
        for (int b = 0; b < buckets; b++) {
            List<Object> row = new ArrayList<>();
            row.add(TenMillisecondBuckets.label(b));
            for (Outcome o : outcomes) {
                List<TenMillisecondBuckets.Bucket> all = o.buckets().buckets();
                row.add(b < all.size() ? all.get(b).count() : 0);
            }
            histogram.row(row.toArray());
        }
        report.section(
                "Latency histogram in the seed's 10 ms buckets",
                "Requests per bucket over all runs. The seed: mode (20, 30] ms on its 2-core VM, (10, 20] ms on "
                        + "its 4-core VM, all within 0-60 ms.",
                histogram.build());

        Chart.Builder bars = Chart.bar(
                "exchange-scalability-buckets.png",
                "Latency histogram (10 ms buckets)",
                "latency bucket (ms)",
                "requests");
        Chart.Builder lines =
                Chart.line("exchange-scalability.png", "Throughput vs concurrent clients", "clients", "requests/s");
        Map<String, Object> raw = new LinkedHashMap<>();
        for (int cores : List.of(2, 1)) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (Outcome o : outcomes) {
                if (o.config().cores() != cores) continue;
                x.add((double) o.config().clients());
                y.add(o.throughput().mean());
            }
            lines.series(cores + (cores == 1 ? " core" : " cores"), x, y);
        }
        for (Outcome o : outcomes) {
            // every series over the same buckets, or the category axis would not line up
            List<String> labels = new ArrayList<>();
            List<Double> counts = new ArrayList<>();
            List<TenMillisecondBuckets.Bucket> own = o.buckets().buckets();
            for (int b = 0; b < buckets; b++) {
                labels.add(TenMillisecondBuckets.label(b));
                counts.add(b < own.size() ? (double) own.get(b).count() : 0.0);
            }
            if (o.config().clients() == 1 || o == bestTwo) bars.bars(o.config().label(), labels, counts);
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("throughputPerRun", o.throughputPerRun());
            entry.put("throughput", o.throughput());
            entry.put("latency", o.latencies().summarize(Duration.ofSeconds(1)));
            entry.put("buckets", o.buckets().buckets());
            entry.put("failures", o.failures());
            raw.put(o.config().label(), entry);
        }
        return report.chart(lines.build())
                .chart(bars.build())
                .note("One core: " + String.join("; ", pinning) + ". The load generator is not pinned and runs "
                        + "on both cores, like the seed's client on the same VM.")
                .note("The seed's two columns are different VMs (2 cores/2 GB and 4 cores/8 GB); this machine has 2 "
                        + "cores, so the 4-core figure is compared with our best 2-core result.")
                .note("Every reply (created, opened, canceled, executions) is committed to PostgreSQL before it is "
                        + "sent (group commit), so each request includes a durable commit; the seed's report does not "
                        + "say how its server stored state.")
                .note("The seed's 39.29 req/s for its 2-core VM does not follow from its own runs: 1000 requests / "
                        + "28.334 s average = 35.29 req/s (its 4-core figure, 1000 / 20.237 s = 49.41 req/s, does). "
                        + "The comparison uses the stated 39.29, which flatters the seed by 11%.")
                .raw("configurations", raw);
    }

    private static Outcome find(List<Outcome> outcomes, int cores, int clients) {
        return outcomes.stream()
                .filter(o -> o.config().cores() == cores && o.config().clients() == clients)
                .findFirst()
                .orElseThrow();
    }
}
