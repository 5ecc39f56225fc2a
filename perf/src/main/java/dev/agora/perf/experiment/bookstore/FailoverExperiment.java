package dev.agora.perf.experiment.bookstore;

import static dev.agora.perf.stats.Numbers.format;

import dev.agora.perf.experiment.ClusterShape;
import dev.agora.perf.experiment.Experiment;
import dev.agora.perf.experiment.ExperimentContext;
import dev.agora.perf.experiment.Seeds;
import dev.agora.perf.experiment.Stock;
import dev.agora.perf.experiment.Target;
import dev.agora.perf.load.Bookstore;
import dev.agora.perf.load.HttpDriver;
import dev.agora.perf.load.HttpReply;
import dev.agora.perf.report.Chart;
import dev.agora.perf.report.Report;
import dev.agora.perf.report.Table;
import dev.agora.perf.stats.Comparison;
import dev.agora.perf.stats.LatencyHistogram;
import dev.agora.perf.stats.PairedRounds;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.ToDoubleFunction;

/**
 * Seed 002, section 4: a catalog replica and an order replica crash (SIGKILL) under a light load; how much
 * longer do the requests the crash reached take (detect + switch), do clients see errors, how long does the
 * restarted process take to get ready, and how soon after that does it serve again. Also a frozen (SIGSTOP)
 * catalog and order replica, which a crash test misses. The frontend names the requests failover touched
 * (header {@code Agora-Failover}), so the affected requests are known, not guessed from their latency.
 */
public final class FailoverExperiment implements Experiment {

    private static final double SEED_SWITCH_CATALOG_MS = 4.98;
    private static final double SEED_SWITCH_ORDER_MS = 9.33;
    private static final double SEED_RECOVER_CATALOG_MS = 535.3;
    private static final double SEED_RECOVER_ORDER_MS = 1073.9;

    /**
     * The frontend's attempt timeouts ({@code agora.clients.*.timeout}, its application.yml): how long a frozen replica
     * makes a call caught on it wait before the call is repeated on another replica.
     */
    private static final int CATALOG_TIMEOUT_MS = 2_000;

    private static final int ORDER_TIMEOUT_MS = 5_000;

    /** The issue's allowance on top of the configured timeout (and a crash's whole allowance). */
    private static final int ALLOWANCE_MS = 5;

    private static final String CATALOG_CRASH = "catalog crash (lookups)";
    private static final String CATALOG_CRASH_BETWEEN = "catalog crash between requests (lookups)";
    private static final String ORDER_CRASH = "order crash (buys)";
    private static final String ORDER_CRASH_BETWEEN = "order crash between requests (buys)";
    private static final String CATALOG_FROZEN = "catalog frozen (lookups)";
    private static final String ORDER_FROZEN = "order frozen (buys)";

    private static final int CRASH_ROUNDS = 3;
    /** Between a repeated phase's label and its round's number. */
    private static final String ROUND = " #";

    /** Between a client's requests: two clients pausing this long keep the box far from saturation. */
    private static final Duration THINK_TIME = Duration.ofMillis(10);

    @Override
    public String name() {
        return "failover";
    }

    @Override
    public String seed() {
        return "002";
    }

    @Override
    public String workload() {
        return "kill -9 one catalog and one order replica under load; detect + switch time; time for the restarted "
                + "replica to serve again; plus a SIGSTOP-frozen catalog and order replica";
    }

    @Override
    public String seedFigure() {
        return "detect+switch 4.98 ms (catalog), 9.33 ms (order); recover 535 ms / 1074 ms";
    }

    private record Phase(String label, String victim, FaultRun.Fault fault, Load load, FaultRun.Result result) {}

    @Override
    public Report run(ExperimentContext context) throws Exception {
        Instant started = Instant.now();
        Report.Builder report = Report.builder(name(), "Failover: crashed and frozen replicas")
                .seed(seed(), Seeds.HARDWARE_002)
                .quick(context.quick());
        // From AOT caches: a restart's start-up is part of what this experiment measures, and the issue asks for it
        // fast.
        Target target = context.cluster(ClusterShape.bookstore().withoutCache().withAotCache());
        if (!target.controllable()) {
            return report.status(Report.Status.FAILED)
                    .headline("Not run: the reused cluster gives no way to kill its replicas")
                    .timing(started, Duration.between(started, Instant.now()))
                    .build();
        }
        FaultRun.Plan plan = new FaultRun.Plan(
                2,
                THINK_TIME,
                Duration.ofSeconds(context.count(3, 2)),
                Duration.ofSeconds(context.count(4, 2)),
                Duration.ofSeconds(context.count(2, 1)));
        List<String> frontends = target.urls("frontend");
        String catalogVictim = target.instanceNames("catalog").getLast();
        String orderVictim = target.instanceNames("order").getLast();
        String survivingCatalog = target.urls("catalog").getFirst();
        List<Phase> phases = new ArrayList<>();
        int rounds = ExperimentContext.chosen(name() + ".rounds", context.count(CRASH_ROUNDS, 1));
        try (HttpDriver http = context.http(16)) {
            Bookstore bookstore = new Bookstore(http, target.tokens());
            Stock.ensure(bookstore, survivingCatalog, Bookstore.BOOK_IDS, 20_000);
            Load lookups = new Load(
                    "lookups",
                    CATALOG_TIMEOUT_MS,
                    (client, i) -> bookstore.lookup(
                            frontends.get((int) ((client + i) % frontends.size())), 1 + (client + i) % 7));
            Load buys = new Load(
                    "buys",
                    ORDER_TIMEOUT_MS,
                    (client, i) -> bookstore.buy(
                            frontends.get((int) ((client + i) % frontends.size())), 1 + (client + i) % 7, 1));
            FaultPhases run = new FaultPhases(context, target, phases);
            // A kill reaches one or two requests, and what they cost depends on how long the kernel takes to tear the
            // killed JVM down (tens of ms, varying run to run), so every crash is repeated and the figures of the
            // kills in flight are medians over their rounds.
            run.rounds(rounds, CATALOG_CRASH, catalogVictim, FaultRun.Fault.KILL, plan, lookups);
            run.rounds(
                    rounds, CATALOG_CRASH_BETWEEN, catalogVictim, FaultRun.Fault.KILL_BETWEEN_REQUESTS, plan, lookups);
            run.rounds(rounds, ORDER_CRASH, orderVictim, FaultRun.Fault.KILL, plan, buys);
            run.rounds(rounds, ORDER_CRASH_BETWEEN, orderVictim, FaultRun.Fault.KILL_BETWEEN_REQUESTS, plan, buys);
            run.phase(CATALOG_FROZEN, catalogVictim, FaultRun.Fault.FREEZE, plan, lookups);
            run.phase(ORDER_FROZEN, orderVictim, FaultRun.Fault.FREEZE, plan, buys);
        } finally {
            context.discardCluster();
        }
        Table.Builder faults = Table.with(
                "phase",
                "requests",
                "failures",
                "baseline p50 ms",
                "baseline p99 ms",
                "worst request ms",
                "failover before fault",
                "refused after ms (teardown)",
                "process gone after ms",
                "affected",
                "worst added ms",
                "worst switch ms",
                "worst switch in frontend ms",
                "refused after gone",
                "worst switch ms (refused)",
                "worst switch in frontend ms (refused)",
                "bound ms");
        Table.Builder recoveries = Table.with(
                "phase",
                "start -> ready ms",
                "ready -> in rotation ms",
                "ready -> first served ms",
                "affected on rejoin",
                "worst added ms (rejoin)");
        Map<String, Object> raw = new LinkedHashMap<>();
        Chart.Builder chart = Chart.scatter(
                        "failover.png",
                        "Request latency around the fault (t = 0 at the fault)",
                        "seconds since fault",
                        "ms (log)")
                .logY();
        Map<String, FaultFigures> figures = new LinkedHashMap<>();
        for (Phase phase : phases) {
            FaultRun.Result r = phase.result();
            FaultFigures f = FaultFigures.of(r);
            figures.put(phase.label(), f);
            boolean crash = phase.fault().kills();
            // In flight at a SIGKILL, a request meets a silent process until the kernel closes its sockets, as in a
            // freeze; between requests, the crash is met as the issue's bound has it: a refused connection.
            int bound = phase.fault() == FaultRun.Fault.KILL_BETWEEN_REQUESTS
                    ? ALLOWANCE_MS
                    : phase.load().timeoutMillis() + ALLOWANCE_MS;
            String name = phase.label() + " (" + phase.victim() + ")";
            faults.row(
                    name,
                    r.requests().size(),
                    r.failures(),
                    format(f.baselineP50Ms()),
                    format(f.baselineP99Ms()),
                    format(f.maxLatencyMs()),
                    f.failoverBeforeFault(),
                    crash ? format(f.refusedAfterMs()) : "(frozen)",
                    crash ? format(f.goneAfterMs()) : "(frozen)",
                    f.atFault().count(),
                    format(f.atFault().worstAddedMs()),
                    format(f.atFault().worstSwitchMs()),
                    format(f.atFault().worstSwitchInFrontendMs()),
                    crash ? Integer.toString(f.refused().count()) : "",
                    crash ? format(f.refused().worstSwitchMs()) : "",
                    crash ? format(f.refused().worstSwitchInFrontendMs()) : "",
                    bound);
            recoveries.row(
                    name,
                    crash ? format(f.startToReadyMs()) : "(thawed)",
                    format(f.readyToRotationMs()),
                    format(f.readyToServedMs()),
                    f.onRejoin().count(),
                    format(f.onRejoin().worstAddedMs()));
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (FaultRun.Request q : r.requests()) {
                x.add((q.startNanos() - r.faultNanos()) / 1e9);
                y.add(q.latencyNanos() / 1e6);
            }
            chart.series(phase.label(), x, y);
            LatencyHistogram all = new LatencyHistogram();
            r.requests().forEach(q -> all.recordNanos(q.latencyNanos()));
            report.latency(
                    phase.label(),
                    all.summarize(Duration.ofNanos(r.requests().getLast().startNanos()
                            - r.requests().getFirst().startNanos())),
                    r.failures());
            if (!r.failureExamples().isEmpty()) {
                report.note(phase.label() + ": " + r.failures() + " requests failed, e.g. " + r.failureExamples());
            }
            raw.put(phase.label(), rawEntry(phase, f, bound));
        }
        FaultFigures.Group catalogRefused = worstOfRounds(figures, CATALOG_CRASH_BETWEEN);
        FaultFigures.Group orderRefused = worstOfRounds(figures, ORDER_CRASH_BETWEEN);
        // The frontend's own measure: a client's latency minus the baseline median is mostly this box's scheduling
        // noise at this scale (it is often below zero), so the table shows it but the comparison uses this.
        Comparison catalogSwitch = Comparison.lowerIsBetter(
                "catalog detect+switch, crash between requests (refused; worst, in the frontend)",
                "ms",
                SEED_SWITCH_CATALOG_MS,
                catalogRefused.worstSwitchInFrontendMs());
        Comparison orderSwitch = Comparison.lowerIsBetter(
                "order detect+switch, crash between requests (refused; worst, in the frontend)",
                "ms",
                SEED_SWITCH_ORDER_MS,
                orderRefused.worstSwitchInFrontendMs());
        report.compare(catalogSwitch).compare(orderSwitch);
        double catalogInFlight =
                medianOfRounds(figures, CATALOG_CRASH, f -> f.atFault().worstSwitchMs());
        double orderInFlight =
                medianOfRounds(figures, ORDER_CRASH, f -> f.atFault().worstSwitchMs());
        double catalogRotation = medianOfRounds(figures, CATALOG_CRASH, FaultFigures::readyToRotationMs);
        double orderRotation = medianOfRounds(figures, ORDER_CRASH, FaultFigures::readyToRotationMs);
        double catalogReady = medianOfRounds(figures, CATALOG_CRASH, FaultFigures::startToReadyMs);
        double orderReady = medianOfRounds(figures, ORDER_CRASH, FaultFigures::startToReadyMs);
        report.compare(Comparison.lowerIsBetter(
                "catalog detect+switch, crash with requests in flight (worst of a kill, median over kills)",
                "ms",
                SEED_SWITCH_CATALOG_MS,
                catalogInFlight));
        report.compare(Comparison.lowerIsBetter(
                "order detect+switch, crash with requests in flight (worst of a kill, median over kills)",
                "ms",
                SEED_SWITCH_ORDER_MS,
                orderInFlight));
        report.compare(Comparison.lowerIsBetter(
                "catalog back in rotation after ready", "ms", SEED_RECOVER_CATALOG_MS, catalogRotation));
        report.compare(Comparison.lowerIsBetter(
                "order back in rotation after ready", "ms", SEED_RECOVER_ORDER_MS, orderRotation));
        report.compare(Comparison.lowerIsBetter(
                "catalog first request served after ready",
                "ms",
                SEED_RECOVER_CATALOG_MS,
                medianOfRounds(figures, CATALOG_CRASH, FaultFigures::readyToServedMs)));
        report.compare(Comparison.lowerIsBetter(
                "order first request served after ready",
                "ms",
                SEED_RECOVER_ORDER_MS,
                medianOfRounds(figures, ORDER_CRASH, FaultFigures::readyToServedMs)));
        report.compare(Comparison.lowerIsBetter(
                "catalog restart to serving (JVM start included)",
                "ms",
                SEED_RECOVER_CATALOG_MS,
                medianOfRounds(figures, CATALOG_CRASH, f -> f.startToReadyMs() + f.readyToServedMs())));
        report.compare(Comparison.lowerIsBetter(
                "order restart to serving (JVM start included)",
                "ms",
                SEED_RECOVER_ORDER_MS,
                medianOfRounds(figures, ORDER_CRASH, f -> f.startToReadyMs() + f.readyToServedMs())));
        long failures = phases.stream().mapToLong(p -> p.result().failures()).sum();
        report.headline(catalogSwitch.headline() + " (" + catalogRefused.count() + " requests met the crash); "
                + orderSwitch.headline() + " (" + orderRefused.count() + " requests)"
                + "; requests in flight at the kill (repeated after the attempt timeout, or when the kernel closed "
                + "the sockets; median over " + rounds + " kills of each): "
                + format(catalogInFlight) + " ms (catalog) / "
                + format(orderInFlight) + " ms (order); " + failures
                + " client-visible failures; frozen replica, worst request "
                + format(maxLatencyMs(figures, CATALOG_FROZEN)) + " ms (catalog) / "
                + format(maxLatencyMs(figures, ORDER_FROZEN)) + " ms (order)"
                + "; restarted replicas back in rotation " + format(catalogRotation)
                + " ms (catalog) / " + format(orderRotation) + " ms (order) after ready (seed recovered in "
                + "535 / 1074 ms); process start to ready " + format(catalogReady) + " / "
                + format(orderReady) + " ms");
        report.section(
                "Faults",
                plan.clients() + " clients send requests through both frontends, each pausing "
                        + THINK_TIME.toMillis() + " ms between requests, so the box is not saturated (cache off, so "
                        + "lookups reach the catalog). After " + plan.baseline().toSeconds() + " s the victim is "
                        + "killed with SIGKILL (or frozen with SIGSTOP); "
                        + plan.outage().toSeconds() + " s "
                        + "later it is restarted (or thawed) while the load goes on until it has served again, and "
                        + plan.afterRecovery().toSeconds() + " s more. Each crash runs " + rounds + " times (rows "
                        + "#1, #2, ...): a kill in flight reaches one or two requests, whose cost turns on the "
                        + "kernel's teardown of that JVM, so the comparisons take each kill's worst request and then "
                        + "the median over the kills. A request is *affected* when the frontend "
                        + "reports failover for it (header `Agora-Failover`: a call repeated on another replica "
                        + "after a refused, reset, timed-out or failed attempt) and it was "
                        + "still running at the fault or started after it, before the restart (or thaw); 'failover "
                        + "before fault' counts such requests in the baseline (attempts past their timeout without "
                        + "any fault). Added latency is an affected request's latency minus the baseline p50 of the "
                        + "same phase; switch is the same from the fault on (a request caught in flight is not "
                        + "charged its time before the fault: the seed's detect + switch). 'In frontend' is the "
                        + "same switch as the frontend measured it (the `after` of its `Agora-Failover` entry: from "
                        + "its call's start, or the fault, to the start of the attempt on another replica), free "
                        + "of the scheduling noise of this box that a client's latency carries (see the baseline "
                        + "p99). A SIGKILLed JVM is torn "
                        + "down by the kernel before its sockets close: Linux unmaps a killed process's memory "
                        + "before it closes its files. 'Refused after' is that teardown window, from the kill to the "
                        + "first refused connection (a probe connects every 2 ms), which the kernel costs, not "
                        + "Agora; requests meeting the dying JVM meanwhile find it silent, like a frozen one, and "
                        + "are repeated elsewhere after the attempt timeout or when its sockets close. 'Refused after "
                        + "gone' are the affected requests that started once connections were refused. 'Between "
                        + "requests': the clients hold back while the victim "
                        + "is killed and resume once its port refuses connections, so the crash reaches requests "
                        + "as a refused connection (or a pooled connection the dead process closed) before any "
                        + "caller knew of it. The bound is the issue's: 5 ms for a crash met as a refused "
                        + "connection; the frontend's attempt timeout plus 5 ms for a freeze and for requests "
                        + "in flight at a kill, which meet a silent process until the kernel closes its sockets "
                        + "(no hedging: such a request waits out its attempt).",
                faults.build());
        report.section(
                "Recovery",
                "'Start -> ready' runs from the restart command to the first ready answer of the new process "
                        + "(started at lower CPU priority, beside the load, from its AOT cache); 'ready -> in "
                        + "rotation' from there to the first frontend admitting all of the service's replicas again "
                        + "(the frontends' `agora.client.instances.admitted{service}` gauge: health-checked, breaker "
                        + "not open); 'ready -> first served' to the first request it "
                        + "completed (its own `/actuator/prometheus` request count), which includes that request's "
                        + "own time on a cold JVM; all polled every 10 ms. 'Affected on rejoin': requests repeated "
                        + "away from the restarted (or thawed) replica because its first answers failed or timed out. "
                        + "Cluster: " + target.shape().describe() + ".",
                recoveries.build());
        return report.chart(chart.build())
                .raw("phases", raw)
                .note("Bounds configured for a freeze (common/README.md, 'Client settings'): a call with no "
                        + "answer is repeated on another replica after its service's attempt timeout, "
                        + CATALOG_TIMEOUT_MS + " ms (catalog reads) or " + ORDER_TIMEOUT_MS
                        + " ms (buys), so a frozen or dying replica costs the requests caught on it about that "
                        + "plus one normal request, until its health check or breaker leaves it out; a killed one "
                        + "refuses at once once the kernel has closed its sockets (or resets the requests it was "
                        + "serving) and costs one retry.")
                .note("The seed delayed its replicas by 10 s to crash them mid-request and timed detection inside its "
                        + "server; here the crash is a real SIGKILL of a JVM under load, and the time is what clients "
                        + "observe.")
                .note("The seed's 'recover' re-synchronised a replica's database; Agora's replicas share their "
                        + "service's PostgreSQL, so a restarted replica has nothing to re-synchronise: its recovery is "
                        + "JVM start-up to ready, then being taken back into the callers' load balancing (ejected "
                        + "replicas are probed every 100 ms).")
                .timing(started, Duration.between(started, Instant.now()))
                .build();
    }

    /** The requests every round of a repeated phase affected, as one group. */
    private static FaultFigures.Group worstOfRounds(Map<String, FaultFigures> figures, String phase) {
        List<FaultFigures.Group> rounds = figures.entrySet().stream()
                .filter(entry -> entry.getKey().startsWith(phase + ROUND))
                .map(entry -> entry.getValue().atFault())
                .toList();
        return new FaultFigures.Group(
                rounds.stream().mapToInt(FaultFigures.Group::count).sum(),
                worst(rounds, FaultFigures.Group::worstAddedMs),
                worst(rounds, FaultFigures.Group::worstSwitchMs),
                worst(rounds, FaultFigures.Group::worstSwitchInFrontendMs));
    }

    private static double worst(List<FaultFigures.Group> groups, ToDoubleFunction<FaultFigures.Group> figure) {
        return groups.stream()
                .mapToDouble(figure)
                .filter(value -> !Double.isNaN(value))
                .max()
                .orElse(Double.NaN);
    }

    /** The median over a repeated phase's rounds of one figure, leaving out rounds where it is NaN. */
    private static double medianOfRounds(
            Map<String, FaultFigures> figures, String phase, ToDoubleFunction<FaultFigures> figure) {
        return PairedRounds.median(figures.entrySet().stream()
                .filter(entry -> entry.getKey().startsWith(phase + ROUND))
                .map(entry -> figure.applyAsDouble(entry.getValue()))
                .filter(value -> !value.isNaN())
                .toList());
    }

    /** The slowest request of a phase, in ms: what a freeze costs the requests caught on the frozen replica. */
    private static double maxLatencyMs(Map<String, FaultFigures> figures, String phase) {
        FaultFigures f = figures.get(phase);
        return f == null ? Double.NaN : f.maxLatencyMs();
    }

    private static double millis(long nanos) {
        return nanos < 0 ? Double.NaN : nanos / 1e6;
    }

    private static Map<String, Object> rawEntry(Phase phase, FaultFigures f, int bound) {
        FaultRun.Result r = phase.result();
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("victim", phase.victim());
        entry.put("fault", phase.fault().name());
        entry.put("requests", r.requests().size());
        entry.put("failures", r.failures());
        entry.put("failureExamples", r.failureExamples());
        entry.put("boundMs", bound);
        entry.put("figures", f);
        long p50 = Math.round(f.baselineP50Ms() * 1e6);
        entry.put("affectedByFault", affected(r.affectedByFault(), r, p50));
        entry.put("affectedOnRejoin", affected(r.affectedOnRejoin(), r, p50));
        entry.put("latenciesAroundFaultMs", aroundFault(r));
        return entry;
    }

    private static List<Map<String, Object>> affected(List<FaultRun.Request> requests, FaultRun.Result r, long p50) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (FaultRun.Request q : requests) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("sinceFaultMs", (q.startNanos() - r.faultNanos()) / 1e6);
            one.put("latencyMs", q.latencyNanos() / 1e6);
            one.put("addedMs", (q.latencyNanos() - p50) / 1e6);
            one.put("switchMs", (q.sinceNanos(r.faultNanos()) - p50) / 1e6);
            one.put("failover", q.failover());
            rows.add(one);
        }
        return rows;
    }

    /** Latencies of requests from 1 s before to 3 s after the fault, as [seconds since fault, ms] pairs. */
    private static List<double[]> aroundFault(FaultRun.Result r) {
        List<double[]> points = new ArrayList<>();
        for (FaultRun.Request q : r.requests()) {
            double t = (q.startNanos() - r.faultNanos()) / 1e9;
            if (t >= -1 && t <= 3) points.add(new double[] {t, q.latencyNanos() / 1e6});
        }
        return points;
    }

    /**
     * What the clients send during a fault: its name for the log, the attempt timeout of the calls it makes, and
     * request {@code i} of client {@code c}.
     */
    private record Load(String name, int timeoutMillis, BiFunction<Integer, Long, HttpReply> call) {}

    /** Runs one fault under load after another against the same cluster, logging each and keeping its result. */
    private record FaultPhases(ExperimentContext context, Target target, List<Phase> phases) {

        void phase(String label, String victim, FaultRun.Fault fault, FaultRun.Plan plan, Load load)
                throws InterruptedException {
            context.log("  " + (fault.kills() ? "kill -9 " : "SIGSTOP ") + victim + " under " + load.name()
                    + (fault == FaultRun.Fault.KILL_BETWEEN_REQUESTS ? ", between requests" : ""));
            FaultRun.Result result = FaultRun.run(target, victim, fault, plan, load.call());
            context.log("    " + result.requests().size() + " requests, " + result.failures() + " failed, "
                    + result.affectedByFault().size() + " affected, ready after " + millis(result.startToReadyNanos())
                    + " ms, in rotation " + millis(result.readyToReadmittedNanos()) + " ms and serving "
                    + millis(result.readyToFirstServedNanos()) + " ms later");
            phases.add(new Phase(label, victim, fault, load, result));
        }

        /** The same phase {@code rounds} times over, each labelled with its round's number. */
        void rounds(int rounds, String label, String victim, FaultRun.Fault fault, FaultRun.Plan plan, Load load)
                throws InterruptedException {
            for (int round = 1; round <= rounds; round++) phase(label + ROUND + round, victim, fault, plan, load);
        }
    }
}
