package dev.agora.perf.experiment.partitions;

import dev.agora.launcher.cluster.ClusterSpec;
import dev.agora.launcher.toxiproxy.ToxiproxyServer;
import dev.agora.perf.experiment.Experiment;
import dev.agora.perf.experiment.ExperimentContext;
import dev.agora.perf.experiment.Seeds;
import dev.agora.perf.report.Chart;
import dev.agora.perf.report.Report;
import dev.agora.perf.report.Table;
import dev.agora.perf.stats.Timeline;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Issue 52: faults between machines. Every link of a whole cluster (2 frontends, 2 catalogs, 2 order services, the
 * exchange and its standby) runs through Toxiproxy; 8 bookstore buyers and 8 exchange traders (4 over XML, 4 over
 * REST) load it while the nemesis partitions single links (both ways, or one way by dropping answers), slows them
 * (latency with jitter, a bandwidth limit), cuts answers off, kills and freezes instances. Then the histories are
 * checked against the databases, and each kind of fault's price is what the clients saw while it lasted.
 */
public final class PartitionsExperiment implements Experiment {

    /** Port offsets clear of a developer's cluster, perf's pool and the launcher's test clusters. */
    static final List<Integer> PORT_OFFSETS = List.of(5_000, 6_000, 7_000, 9_000, 11_000, 20_000);

    @Override
    public String name() {
        return "partitions";
    }

    @Override
    public String seed() {
        return "000";
    }

    @Override
    public String workload() {
        return "8 buyers and 8 traders (XML and REST) on a cluster whose every link runs through Toxiproxy, while a"
                + " nemesis partitions, slows, thins and cuts links, kills and freezes instances and steps one clock;"
                + " histories checked";
    }

    @Override
    public String seedFigure() {
        return "not measured by the seeds; issue 52: nothing acknowledged lost or doubled, no oversell, cash and shares"
                + " conserved, one exchange leader at a time";
    }

    @Override
    public Report run(ExperimentContext context) throws Exception {
        Instant started = Instant.now();
        Report.Builder report = Report.builder(name(), "Faults between machines: partitions, slow links, a nemesis")
                .seed(seed(), Seeds.HARDWARE_000)
                .quick(context.quick());
        if (context.reusingCluster() || ToxiproxyServer.locate().isEmpty()) {
            return report.status(Report.Status.FAILED)
                    .headline(
                            context.reusingCluster()
                                    ? "Not run: needs a cluster of its own whose links run through Toxiproxy"
                                    : "Not run: Toxiproxy's server is not installed (.ci/install-toxiproxy.sh)")
                    .timing(started, Duration.between(started, Instant.now()))
                    .build();
        }
        // One whole cluster at a time on this machine: the pool's goes first.
        context.discardCluster();
        PartitionsRun.Plan plan = new PartitionsRun.Plan(
                8,
                4,
                4,
                Duration.ofSeconds(context.count(20, 6)),
                Duration.ofSeconds(context.count(10, 3)),
                Duration.ofSeconds(context.count(10, 4)));
        Path data = Files.createTempDirectory("agora-partitions-");
        Optional<SteppedClock> clock = SteppedClock.of(Nemesis.CLOCK_INSTANCE, data.resolve("clock"));
        PartitionsRun.Result result;
        try (LinkedCluster linked =
                LinkedCluster.start(spec(data.resolve("cluster")), data.resolve("toxiproxy.log"), clock)) {
            context.log("  cluster up; " + linked.links().links().size() + " links through Toxiproxy");
            result = PartitionsRun.run(linked, plan, Nemesis.schedule(clock.isPresent()), context::log);
        } catch (Exception | Error e) {
            // The instances' and Toxiproxy's logs say why: they stay.
            context.log("  logs kept in " + data);
            throw e;
        }
        deleteQuietly(data);
        return report(report, result, plan, clock.isPresent())
                .timing(started, Duration.between(started, Instant.now()))
                .build();
    }

    static void deleteQuietly(Path directory) {
        try (var paths = Files.walk(directory)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(path);
        } catch (IOException | RuntimeException e) {
            // A temporary directory: what is left does no harm.
        }
    }

    static ClusterSpec spec(Path data) {
        ClusterSpec spec =
                ClusterSpec.defaults().withDataDirectory(data).withFresh(true).withPostgresPort(0);
        return spec.withFreePortOffset(PORT_OFFSETS);
    }

    /**
     * The load through the run, second by second: what each client had answered, what failed, and a band over the
     * seconds in which a fault was applied (which one: the table of faults).
     */
    static Chart timeline(PartitionsRun.Result result) {
        long origin = result.startNanos();
        long end =
                result.calls().stream().mapToLong(Calls.Call::endedNanos).max().orElse(origin);
        Duration span = Duration.ofNanos(Math.max(1, end - origin + 1));
        Duration second = Duration.ofSeconds(1);
        Timeline failed = new Timeline(origin, Duration.ZERO, span, second);
        Map<String, Timeline> answered = new LinkedHashMap<>();
        Map<String, String> names =
                Map.of("buy", "buys answered", "xml", "XML orders answered", "rest", "REST orders answered");
        for (String client : List.of("buy", "xml", "rest")) {
            answered.put(client, new Timeline(origin, Duration.ZERO, span, second));
        }
        for (Calls.Call call : result.calls()) {
            Timeline timeline = call.answered() ? answered.get(call.kind()) : failed;
            if (timeline != null) timeline.add(call.endedNanos(), call.answered());
        }
        List<Double> seconds = failed.binStartSeconds();
        Chart.Builder chart = Chart.timeline(
                "partitions.png",
                "Attempts per second through the faults (the band: a fault applied, see the table)",
                "seconds since the load started",
                "attempts per second");
        double peak = 0;
        for (Map.Entry<String, Timeline> client : answered.entrySet()) {
            List<Double> rates = client.getValue().answeredPerSecond();
            peak = Math.max(
                    peak, rates.stream().mapToDouble(Double::doubleValue).max().orElse(0));
            chart.series(names.get(client.getKey()), seconds, rates);
        }
        chart.series("failed, all clients", seconds, failed.failedPerSecond());
        double band = peak * 1.05;
        chart.series(
                "a fault applied",
                seconds,
                seconds.stream()
                        .map(at -> faultAt(result.faults(), origin + (long) ((at + 0.5) * 1e9)) ? band : 0.0)
                        .toList());
        return chart.build();
    }

    private static boolean faultAt(List<Nemesis.Applied> faults, long nanos) {
        return faults.stream().anyMatch(f -> f.startNanos() <= nanos && nanos < f.endNanos());
    }

    static Report.Builder report(
            Report.Builder report, PartitionsRun.Result result, PartitionsRun.Plan plan, boolean clockStepped) {
        Checks.Bookstore bookstore = result.bookstore();
        Checks.Exchange exchange = result.exchange();
        Table.Builder faults = Table.with("kind", "target", "start, s", "end, s", "seen");
        for (Map<String, Object> fault : result.faultsJson()) {
            faults.row(
                    fault.get("kind"),
                    fault.get("target"),
                    String.format("%.1f", ((Number) fault.get("start")).longValue() / 1000.0),
                    String.format("%.1f", ((Number) fault.get("end")).longValue() / 1000.0),
                    fault.getOrDefault("observed", ""));
        }
        Table.Builder costs = Table.with("fault kind", "client", "attempts", "errors", "error share", "p99, ms");
        for (PartitionsRun.Cost cost : result.costs()) {
            costs.row(
                    cost.kind(),
                    cost.client(),
                    cost.calls(),
                    cost.errors(),
                    cost.calls() == 0 ? "-" : String.format("%.1f%%", 100.0 * cost.errors() / cost.calls()),
                    String.format("%.1f", cost.p99Millis()));
        }
        Table checks = Table.with("history", "acknowledged", "lost", "duplicated / two leaders", "oversold / conserved")
                .row(
                        "bookstore buys",
                        bookstore.acknowledged(),
                        bookstore.lost(),
                        bookstore.duplicated(),
                        bookstore.oversold())
                .row(
                        "exchange orders (" + exchange.executionsAcknowledged() + " executions)",
                        exchange.acknowledged(),
                        exchange.lost(),
                        "leaders at once: " + exchange.leadersAtOnce() + " (by health: "
                                + exchange.leadersAtOnceByHealth() + ")",
                        "cash " + exchange.cashConserved() + ", shares " + exchange.sharesConserved())
                .build();
        List<String> problems = new java.util.ArrayList<>(bookstore.problems());
        problems.addAll(exchange.problems());
        report.headline((result.ok()
                                ? "nothing acknowledged lost or doubled, no oversell, cash and shares conserved,"
                                        + " one exchange leader at a time"
                                : "FAILED: " + problems.size() + " problems")
                        + " across " + result.faults().size() + " faults; " + bookstore.acknowledged()
                        + " buys and " + exchange.acknowledged() + " exchange orders acknowledged")
                .section(
                        "Faults applied",
                        "Each fault lasted " + plan.faultLength().toSeconds() + " s (a kill: until the instance was"
                                + " restarted and ready; a clock step: from the step until the instance was seen not"
                                + " ready, then this, then until it was ready again), then was healed, then "
                                + plan.gap().toSeconds() + " s of"
                                + " calm; times from the start of the load. Links run through Toxiproxy on loopback,"
                                + " one proxy per caller and callee (launcher's NetworkLinks): a partition drops"
                                + " data both ways and holds connections open (one way: the answers are dropped);"
                                + " healing closes the connections that lost data.",
                        faults.build())
                .section(
                        "Histories",
                        "Buys: every acknowledged buy (201 CONFIRMED, 409 out of stock) in the orders database once,"
                                + " with the status it was answered; each book's stock dropped by exactly its CONFIRMED"
                                + " orders' quantities, which is also what the catalog reserved; oversold = copies"
                                + " confirmed beyond the stock. Exchange: every acknowledged order in the database as"
                                + " acknowledged, no order id acknowledged for two orders, every execution a query"
                                + " showed in the database, each trader's cash and shares conserved, and one leader at"
                                + " a time by the work acknowledged: every batch is fenced with its leader's lease"
                                + " epoch and writes it with the orders it places, and no order sent after another's"
                                + " acknowledgement was committed at an earlier epoch than that one, nor were one"
                                + " epoch's orders acknowledged by two instances. (The leader watch, both instances'"
                                + " health asked alternately, is reported as leadersAtOnceByHealth: an instance's"
                                + " belief that it leads, which a deposed leader keeps for up to a lease.) "
                                + (problems.isEmpty() ? "No problems." : "Problems: " + String.join("; ", problems)),
                        checks)
                .section(
                        "What each fault costs clients",
                        "Attempts that started while a fault of that kind was applied (\"none\": outside every"
                                + " fault); an error is an attempt nobody answered (a buy or a REST order is then"
                                + " sent again with its idempotency key, an XML order is not). p99 over all attempts.",
                        costs.build())
                .chart(timeline(result))
                .note(
                        clockStepped
                                ? "The clock step moves one instance's wall clock alone, while it runs: libfaketime"
                                        + " preloaded into that JVM only, reading its offset from a file the nemesis"
                                        + " rewrites (the monotonic clock stays real). \"seen\": how long after the"
                                        + " step its readiness check (clock against the database's, at most 500 ms"
                                        + " apart) made it not ready, the reservations it served before and while it"
                                        + " was not ready (its callers' load balancers stop sending to it), and how"
                                        + " long after the step back it was ready again."
                                : "Clock steps of one instance are not applied: libfaketime is not installed"
                                        + " (.ci/install-libfaketime.sh).")
                .raw("faults", result.faultsJson())
                .raw("bookstore", bookstore.json())
                .raw("exchange", exchange.json())
                .raw(
                        "costs",
                        result.costs().stream()
                                .map(c -> Map.of(
                                        "kind", c.kind(),
                                        "client", c.client(),
                                        "calls", c.calls(),
                                        "errors", c.errors(),
                                        "p99Millis", c.p99Millis()))
                                .toList());
        if (!result.ok()) report.status(Report.Status.FAILED);
        return report;
    }
}
