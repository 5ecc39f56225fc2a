package dev.agora.perf.experiment;

import static dev.agora.perf.stats.Numbers.format;

import dev.agora.perf.load.Bookstore;
import dev.agora.perf.load.HttpDriver;
import dev.agora.perf.load.HttpReply;
import dev.agora.perf.report.Chart;
import dev.agora.perf.report.Report;
import dev.agora.perf.report.Table;
import dev.agora.perf.stats.Comparison;
import dev.agora.perf.stats.LatencyHistogram;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Seed 002, section 4: a catalog replica and an order replica crash (SIGKILL) under load; how much longer do
 * the affected requests take (detect + switch), do clients see errors, and how soon after the restarted
 * replica is ready does it serve again. Also a frozen (SIGSTOP) catalog replica, which a crash test misses.
 */
final class FailoverExperiment implements Experiment {

    private static final double SEED_SWITCH_CATALOG_MS = 4.98;
    private static final double SEED_SWITCH_ORDER_MS = 9.33;
    private static final double SEED_RECOVER_CATALOG_MS = 535.3;
    private static final double SEED_RECOVER_ORDER_MS = 1073.9;

    /** The frontend's hedge delays (application.yml defaults): what a frozen replica may cost a request. */
    private static final int CATALOG_HEDGE_MS = 50;

    private static final int ORDER_HEDGE_MS = 250;

    /** After the fault, requests this much slower than the baseline p99.9 count as affected. */
    private static final double SLOW_FACTOR = 2;

    private static final Duration AFFECTED_WINDOW = Duration.ofSeconds(5);

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

    private record Phase(String label, String victim, FaultRun.Fault fault, FaultRun.Result result) {}

    @Override
    public Report run(ExperimentContext context) throws Exception {
        Instant started = Instant.now();
        Report.Builder report = Report.builder(name(), "Failover: crashed and frozen replicas")
                .seed(seed(), Seeds.HARDWARE_002)
                .quick(context.quick());
        Target target = context.cluster(ClusterShape.bookstore().withoutCache());
        if (!target.controllable()) {
            return report.status(Report.Status.FAILED)
                    .headline("Not run: the reused cluster gives no way to kill its replicas")
                    .timing(started, Duration.between(started, Instant.now()))
                    .build();
        }
        int clients = context.count(4, 2);
        Duration baseline = Duration.ofSeconds(context.count(3, 2));
        Duration outage = Duration.ofSeconds(context.count(10, 3));
        Duration frozen = Duration.ofSeconds(context.count(5, 3));
        List<String> frontends = target.urls("frontend");
        String catalogVictim = target.instanceNames("catalog").getLast();
        String orderVictim = target.instanceNames("order").getLast();
        String survivingCatalog = target.urls("catalog").getFirst();
        List<Phase> phases = new ArrayList<>();
        try (HttpDriver http = context.http(16)) {
            Bookstore bookstore = new Bookstore(http);
            Stock.ensure(bookstore, survivingCatalog, Bookstore.BOOK_IDS, 20_000);
            Load lookups = new Load(
                    "lookups",
                    (client, i) -> bookstore.lookup(
                            frontends.get((int) ((client + i) % frontends.size())), 1 + (client + i) % 7));
            Load buys = new Load(
                    "buys",
                    (client, i) -> bookstore.buy(
                            frontends.get((int) ((client + i) % frontends.size())), 1 + (client + i) % 7, 1));
            FaultPhases run = new FaultPhases(context, target, clients, baseline, phases);
            run.phase("catalog crash (lookups)", catalogVictim, FaultRun.Fault.KILL, outage, lookups);
            run.phase("order crash (buys)", orderVictim, FaultRun.Fault.KILL, outage, buys);
            run.phase("catalog frozen (lookups)", catalogVictim, FaultRun.Fault.FREEZE, frozen, lookups);
            run.phase("order frozen (buys)", orderVictim, FaultRun.Fault.FREEZE, frozen, buys);
        } finally {
            context.discardCluster();
        }
        Table.Builder table = Table.with(
                "phase",
                "requests",
                "failures",
                "baseline p50 ms",
                "baseline p99.9 ms",
                "in flight at fault",
                "worst extra ms (in flight)",
                "slow after fault",
                "worst extra ms (slow)",
                "start -> ready ms",
                "ready -> first served ms");
        Map<String, Object> raw = new LinkedHashMap<>();
        Chart.Builder chart = Chart.scatter(
                        "failover.png",
                        "Request latency around the fault (t = 0 at the fault)",
                        "seconds since fault",
                        "ms (log)")
                .logY();
        Map<String, double[]> switchAndRecover = new LinkedHashMap<>();
        for (Phase phase : phases) {
            FaultRun.Result r = phase.result();
            LatencyHistogram base = r.baseline();
            long p50 = Math.round(base.percentileMillis(50) * 1e6);
            long threshold = Math.round(
                    Math.max(base.percentileMillis(99.9) * SLOW_FACTOR, base.percentileMillis(50) + 5) * 1e6);
            List<FaultRun.Request> inFlight = r.inFlightAtFault();
            List<FaultRun.Request> slow = r.slowAfterFault(AFFECTED_WINDOW, threshold);
            double worstInFlight = inFlight.stream()
                            .mapToLong(q -> q.latencyNanos() - p50)
                            .max()
                            .orElse(0)
                    / 1e6;
            double worstSlow =
                    slow.stream().mapToLong(q -> q.latencyNanos() - p50).max().orElse(0) / 1e6;
            double detectSwitch = Math.max(0, Math.max(worstInFlight, worstSlow));
            double readyToServed = r.readyNanos() > 0 && r.firstServedNanos() > 0
                    ? (r.firstServedNanos() - r.readyNanos()) / 1e6
                    : Double.NaN;
            double startToReady = r.startToReady().toNanos() / 1e6;
            switchAndRecover.put(phase.label(), new double[] {detectSwitch, readyToServed, startToReady});
            table.row(
                    phase.label() + " (" + phase.victim() + ")",
                    r.requests().size(),
                    r.failures(),
                    format(base.percentileMillis(50)),
                    format(base.percentileMillis(99.9)),
                    inFlight.size(),
                    format(worstInFlight),
                    slow.size(),
                    format(worstSlow),
                    phase.fault() == FaultRun.Fault.KILL ? format(startToReady) : "(thawed)",
                    format(readyToServed));
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
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("victim", phase.victim());
            entry.put("fault", phase.fault().name());
            entry.put("requests", r.requests().size());
            entry.put("failures", r.failures());
            entry.put("failureExamples", r.failureExamples());
            if (!r.failureExamples().isEmpty()) {
                report.note(phase.label() + ": " + r.failures() + " requests failed, e.g. " + r.failureExamples());
            }
            entry.put("baselineP50Ms", base.percentileMillis(50));
            entry.put("baselineP999Ms", base.percentileMillis(99.9));
            entry.put("inFlightAtFault", inFlight.size());
            entry.put("worstExtraInFlightMs", worstInFlight);
            entry.put("slowAfterFault", slow.size());
            entry.put("worstExtraSlowMs", worstSlow);
            entry.put("startToReadyMs", startToReady);
            entry.put("readyToFirstServedMs", Double.isNaN(readyToServed) ? null : readyToServed);
            entry.put("latenciesAroundFaultMs", aroundFault(r));
            raw.put(phase.label(), entry);
        }
        double[] catalog = switchAndRecover.get("catalog crash (lookups)");
        double[] order = switchAndRecover.get("order crash (buys)");
        Comparison catalogSwitch = Comparison.lowerIsBetter(
                "catalog detect+switch (worst extra latency)", "ms", SEED_SWITCH_CATALOG_MS, catalog[0]);
        Comparison orderSwitch = Comparison.lowerIsBetter(
                "order detect+switch (worst extra latency)", "ms", SEED_SWITCH_ORDER_MS, order[0]);
        report.compare(catalogSwitch).compare(orderSwitch);
        report.compare(Comparison.lowerIsBetter(
                "catalog back in service after ready", "ms", SEED_RECOVER_CATALOG_MS, catalog[1]));
        report.compare(
                Comparison.lowerIsBetter("order back in service after ready", "ms", SEED_RECOVER_ORDER_MS, order[1]));
        report.compare(Comparison.lowerIsBetter(
                "catalog restart to serving (JVM start included)",
                "ms",
                SEED_RECOVER_CATALOG_MS,
                catalog[2] + catalog[1]));
        report.compare(Comparison.lowerIsBetter(
                "order restart to serving (JVM start included)", "ms", SEED_RECOVER_ORDER_MS, order[2] + order[1]));
        long failures = phases.stream().mapToLong(p -> p.result().failures()).sum();
        report.headline(catalogSwitch.headline() + "; " + orderSwitch.headline() + "; " + failures
                + " client-visible failures; restarted catalog serving " + format(catalog[1]) + " ms after ready (seed "
                + "recovered in 535 ms)");
        report.section(
                "Phases",
                clients + " clients send requests back to back through both frontends (cache off, so lookups reach the "
                        + "catalog). After " + baseline.toSeconds() + " s the victim is killed with SIGKILL (or frozen "
                        + "with SIGSTOP); " + outage.toSeconds()
                        + " s later it is restarted (or thawed) while the load "
                        + "goes on. Detect + switch is the extra latency (over the baseline p50) of the requests in "
                        + "flight at the fault, and of requests started within " + AFFECTED_WINDOW.toSeconds()
                        + " s after it that took more than " + format(SLOW_FACTOR) + "x the baseline p99.9; the "
                        + "worst of them is reported. 'Ready -> first served' polls the replica's readiness and its "
                        + "own request counter (`/actuator/prometheus`, non-actuator URIs) every 10 ms.",
                table.build());
        return report.chart(chart.build())
                .raw("phases", raw)
                .note(
                        "Bounds configured for a freeze (frontend-service/README.md, 'Timeout budget'): an idempotent call "
                                + "with no answer is hedged to another replica after " + CATALOG_HEDGE_MS
                                + " ms (catalog "
                                + "reads) or " + ORDER_HEDGE_MS
                                + " ms (buys), so a frozen replica should cost its requests "
                                + "about that plus one normal request; a killed one refuses at once and costs one retry.")
                .note("The seed delayed its replicas by 10 s to crash them mid-request and timed detection inside its "
                        + "server; here the crash is a real SIGKILL of a JVM under continuous load, and the time is what "
                        + "clients observe.")
                .note("The seed's 'recover' re-synchronised a replica's database; Agora's replicas share their "
                        + "service's PostgreSQL, so a restarted replica has nothing to re-synchronise: its recovery is "
                        + "JVM start-up to ready, then being taken back into the frontends' load balancing.")
                .timing(started, Duration.between(started, Instant.now()))
                .build();
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

    /** What the clients send during a fault: its name for the log, and request {@code i} of client {@code c}. */
    private record Load(String name, BiFunction<Integer, Long, HttpReply> call) {}

    /** Runs one fault under load after another against the same cluster, logging each and keeping its result. */
    private record FaultPhases(
            ExperimentContext context, Target target, int clients, Duration baseline, List<Phase> phases) {

        void phase(String label, String victim, FaultRun.Fault fault, Duration outage, Load load)
                throws InterruptedException {
            context.log(
                    "  " + (fault == FaultRun.Fault.KILL ? "kill -9 " : "SIGSTOP ") + victim + " under " + load.name());
            phases.add(new Phase(
                    label, victim, fault, FaultRun.run(target, victim, fault, clients, baseline, outage, load.call())));
        }
    }
}
