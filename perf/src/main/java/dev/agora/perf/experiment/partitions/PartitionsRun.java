package dev.agora.perf.experiment.partitions;

import dev.agora.launcher.cluster.Cluster;
import dev.agora.launcher.credentials.AccessTokens;
import dev.agora.perf.load.HttpDriver;
import dev.agora.perf.load.HttpReply;
import dev.agora.perf.stats.LatencyHistogram;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hc.core5.util.Timeout;

/**
 * One nemesis run against a {@link LinkedCluster}: a mixed load (bookstore buyers with idempotency keys, XML and REST
 * traders) while the nemesis applies its schedule, then the histories checked against the databases.
 */
final class PartitionsRun {

    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*(\\d+)");

    /** How much load, and how long each fault lasts and the calm after it. */
    record Plan(int buyers, int xmlTraders, int restTraders, Duration faultLength, Duration gap, Duration calm) {}

    /** What the clients of one fault kind saw. */
    record Cost(String kind, String client, long calls, long errors, double p99Millis) {}

    record Result(
            long startNanos,
            List<Nemesis.Applied> faults,
            Checks.Bookstore bookstore,
            Checks.Exchange exchange,
            List<Calls.Call> calls) {

        boolean ok() {
            return bookstore.ok() && exchange.ok();
        }

        /**
         * Per fault kind (and "none": calls that started outside every fault) and per client: calls, errors, p99. A
         * call that started while faults of several kinds were applied together counts for each.
         */
        List<Cost> costs() {
            List<Cost> costs = new ArrayList<>();
            List<String> kinds = new ArrayList<>(Nemesis.KINDS);
            kinds.add("none");
            for (String kind : kinds) {
                for (String client : List.of("buy", "xml", "rest")) {
                    LatencyHistogram latency = new LatencyHistogram();
                    long errors = 0;
                    for (Calls.Call call : calls) {
                        if (!call.kind().equals(client)
                                || !faultKindsAt(call.startedNanos()).contains(kind)) continue;
                        latency.recordNanos(Math.max(0, call.nanos()));
                        if (!call.answered()) errors++;
                    }
                    if (latency.count() > 0
                            || !kind.equals("none")
                                    && faults.stream().anyMatch(f -> f.kind().equals(kind))) {
                        costs.add(new Cost(
                                kind,
                                client,
                                latency.count(),
                                errors,
                                latency.count() == 0 ? 0 : latency.percentileMillis(99)));
                    }
                }
            }
            return costs;
        }

        /** The kinds of the faults applied at {@code nanos} (several when a schedule applies faults together). */
        private Set<String> faultKindsAt(long nanos) {
            Set<String> kinds = new HashSet<>();
            for (Nemesis.Applied fault : faults) {
                if (fault.startNanos() <= nanos && nanos < fault.endNanos()) kinds.add(fault.kind());
            }
            return kinds.isEmpty() ? Set.of("none") : kinds;
        }

        /** The faults as the report's JSON lists them: milliseconds from the run's start. */
        List<Map<String, Object>> faultsJson() {
            return faults.stream()
                    .map(f -> {
                        Map<String, Object> json = new LinkedHashMap<>();
                        json.put("kind", f.kind());
                        json.put("target", f.target());
                        json.put("start", (f.startNanos() - startNanos) / 1_000_000);
                        json.put("end", (f.endNanos() - startNanos) / 1_000_000);
                        if (!f.observed().isEmpty()) json.put("observed", f.observed());
                        return json;
                    })
                    .toList();
        }
    }

    private PartitionsRun() {}

    static Result run(LinkedCluster linked, Plan plan, List<List<Nemesis.Fault>> schedule, Consumer<String> log)
            throws Exception {
        Cluster cluster = linked.cluster();
        AccessTokens tokens = linked.tokens();
        Calls calls = new Calls();
        try (HttpDriver http = new HttpDriver(64, Timeout.ofSeconds(5))) {
            Map<Long, Long> stock = new LinkedHashMap<>();
            if (plan.buyers() > 0 && !cluster.urls("frontend").isEmpty()) {
                String catalog = cluster.urls("catalog").getFirst();
                String admin = tokens.authorization(AccessTokens.User.ADMIN);
                for (long copies : List.of(150L, 1_000_000L, 1_000_000L)) {
                    stock.put(registerBook(http, catalog, admin, copies), copies);
                }
            }
            List<String> frontends = cluster.urls("frontend");
            Traders traders = new Traders(
                    cluster.exchangeTcpPorts(),
                    cluster.instances().stream()
                            .filter(i -> i.service().equals("exchange"))
                            .map(dev.agora.launcher.cluster.Instance::name)
                            .toList(),
                    Duration.ofSeconds(2),
                    calls);
            Nemesis nemesis = new Nemesis(linked, log);
            Buyers buyers = plan.buyers() > 0 && !frontends.isEmpty()
                    ? new Buyers(
                            frontends,
                            () -> tokens.authorization(AccessTokens.User.CUSTOMER),
                            List.copyOf(stock.keySet()),
                            http,
                            calls)
                    : null;
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> threads = new ArrayList<>();
            long started;
            List<LeaderWatch.Observation> leaders;
            try (LeaderWatch watch = new LeaderWatch(cluster.urls("exchange"))) {
                // Daemon threads, stopped by the flag; should starting one fail, the ones started stop too.
                threads.addAll(traders.start(
                        plan.xmlTraders(),
                        frontends.isEmpty() ? 0 : plan.restTraders(),
                        frontends,
                        () -> tokens.authorization(AccessTokens.User.ADMIN),
                        http,
                        stop));
                if (buyers != null) threads.addAll(buyers.start(plan.buyers(), stop));
                started = System.nanoTime();
                try {
                    runSchedule(nemesis, schedule, plan, log);
                } finally {
                    stop.set(true);
                    join(threads);
                    linked.links().healAll();
                    // A restart still under way (niced) gets the CPU the load had.
                    nemesis.awaitHealing();
                }
                leaders = watch.observations();
            } finally {
                stop.set(true);
            }
            return check(
                    cluster,
                    started,
                    nemesis,
                    buyers == null ? List.of() : buyers.buys(),
                    stock,
                    traders,
                    leaders,
                    calls);
        }
    }

    private static void runSchedule(
            Nemesis nemesis, List<List<Nemesis.Fault>> schedule, Plan plan, Consumer<String> log)
            throws InterruptedException {
        Thread.sleep(plan.calm().toMillis());
        nemesis.run(schedule, plan.faultLength(), plan.gap());
        log.accept("  faults healed; load goes on for " + plan.calm().toSeconds() + " s");
        Thread.sleep(plan.calm().toMillis());
    }

    private static Result check(
            Cluster cluster,
            long started,
            Nemesis nemesis,
            List<Buyers.Buy> buys,
            Map<Long, Long> stock,
            Traders traders,
            List<LeaderWatch.Observation> leaders,
            Calls calls)
            throws Exception {
        Checks.Bookstore bookstore = stock.isEmpty()
                ? new Checks.Bookstore(0, 0, 0, 0, 0, List.of())
                : Checks.bookstore(
                        buys, stock, database(cluster, "orders"), database(cluster, "catalog"), Duration.ofSeconds(60));
        Checks.Exchange exchange = Checks.exchange(traders, leaders, database(cluster, "exchange"));
        return new Result(started, nemesis.applied(), bookstore, exchange, calls.all());
    }

    static Checks.Database database(Cluster cluster, String name) {
        return new Checks.Database(cluster.jdbcUrl(name), cluster.username(), cluster.password());
    }

    private static void join(List<Thread> threads) throws InterruptedException {
        for (Thread thread : threads) {
            // A buy makes at most six attempts of at most five seconds each.
            thread.join(Duration.ofSeconds(60));
        }
    }

    private static long registerBook(HttpDriver http, String catalog, String admin, long copies) {
        String title = "Nemesis " + Long.toString(System.nanoTime(), 36);
        HttpReply reply = http.postJson(
                catalog + "/admin/books",
                "{\"title\":\"" + title + "\",\"topic\":\"nemesis\",\"price\":10.00,\"stock\":" + copies + "}",
                Map.of("Authorization", admin));
        Matcher id = ID.matcher(reply.body());
        if (reply.status() != 201 || !id.find()) {
            throw new IllegalStateException("could not register a book: " + reply.status() + " " + reply.body());
        }
        return Long.parseLong(id.group(1));
    }
}
