package dev.agora.perf.experiment.partitions;

import dev.agora.launcher.cluster.Cluster;
import dev.agora.launcher.cluster.Link;
import dev.agora.launcher.cluster.NetworkLinks;
import dev.agora.launcher.toxiproxy.Toxic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Applies faults to a {@link LinkedCluster} one step after the other, each step's faults together for a while and
 * then healed: partitions of single links (both ways, or one way by dropping the answers), latency with jitter, a
 * bandwidth limit, connections cut in the middle of an answer, kill -9 and SIGSTOP of single instances, and a step of
 * one instance's clock. Remembers when each was applied and healed, and what a fault watched for saw.
 */
final class Nemesis {

    /** The kinds of fault, as the report names them. */
    static final List<String> KINDS = List.of("partition", "latency", "bandwidth", "reset", "kill", "pause", "clock");

    /**
     * One fault as applied: kind, what it hit, when (nanoTime) it started and was healed, and what was seen while it
     * lasted (empty for faults that watch nothing).
     */
    record Applied(String kind, String target, long startNanos, long endNanos, Map<String, Object> observed) {}

    /** A fault to apply: {@link Fault#apply} returns what it hit and how to heal it. */
    interface Fault {
        String kind();

        Hit apply(LinkedCluster cluster);
    }

    /**
     * What a fault hit, how to undo it, and what it saw (asked after the heal). A heal {@code inBackground} (a killed
     * instance's restart) runs on a thread of its own while the schedule goes on; the fault ends when it is done.
     */
    record Hit(String target, Runnable heal, Supplier<Map<String, Object>> observed, boolean inBackground) {
        Hit(String target, Runnable heal) {
            this(target, heal, Map::of, false);
        }

        Hit(String target, Runnable heal, Supplier<Map<String, Object>> observed) {
            this(target, heal, observed, false);
        }
    }

    private final LinkedCluster cluster;
    private final Consumer<String> log;
    private final List<Applied> applied = Collections.synchronizedList(new ArrayList<>());
    private final List<Thread> healing = new ArrayList<>();

    Nemesis(LinkedCluster cluster, Consumer<String> log) {
        this.cluster = cluster;
        this.log = log;
    }

    /** Each fault on its own: applied, held for {@code length}, healed, then {@code gap} of calm. */
    static List<List<Fault>> oneAtATime(List<Fault> faults) {
        return faults.stream().map(List::of).toList();
    }

    /**
     * Applies each step's faults together, holds them for {@code length}, heals them (in reverse order), then waits
     * {@code gap}.
     */
    void run(List<List<Fault>> steps, Duration length, Duration gap) throws InterruptedException {
        for (List<Fault> step : steps) {
            List<Fault> faults = new ArrayList<>();
            List<Hit> hits = new ArrayList<>();
            List<Long> starts = new ArrayList<>();
            try {
                for (Fault fault : step) {
                    long started = System.nanoTime();
                    Hit hit = fault.apply(cluster);
                    log.accept("  nemesis: " + fault.kind() + " " + hit.target());
                    faults.add(fault);
                    hits.add(hit);
                    starts.add(started);
                }
                Thread.sleep(length.toMillis());
            } finally {
                for (int i = hits.size() - 1; i >= 0; i--) {
                    Hit hit = hits.get(i);
                    String kind = faults.get(i).kind();
                    long started = starts.get(i);
                    Runnable heal = () -> {
                        hit.heal().run();
                        long healed = System.nanoTime();
                        Map<String, Object> seen = hit.observed().get();
                        applied.add(new Applied(kind, hit.target(), started, healed, seen));
                        log.accept("  nemesis: healed " + kind + " " + hit.target()
                                + (seen.isEmpty() ? "" : "; seen: " + seen));
                    };
                    if (hit.inBackground()) {
                        healing.add(Thread.ofPlatform().name("nemesis-heal").start(heal));
                    } else {
                        heal.run();
                    }
                }
            }
            Thread.sleep(gap.toMillis());
        }
    }

    /**
     * Waits for the heals still running in the background (a restart takes at most the launcher's ready timeout).
     * Their faults are in {@link #applied} only once they are done.
     */
    void awaitHealing() throws InterruptedException {
        for (Thread heal : healing) heal.join(Duration.ofMinutes(6));
        healing.clear();
    }

    /** The faults applied so far, in the order they started. */
    List<Applied> applied() {
        synchronized (applied) {
            return applied.stream()
                    .sorted(Comparator.comparingLong(Applied::startNanos))
                    .toList();
        }
    }

    // The faults.

    /** The active exchange cut off from PostgreSQL, both ways; its traders still reach it. */
    static Fault exchangeLeaderFromDatabase() {
        return fault("partition", c -> {
            String leader = activeExchange(c.cluster());
            Link link = c.links().link(leader, NetworkLinks.POSTGRES);
            c.links().partition(link);
            return new Hit(
                    link.describe() + " (the active exchange)", () -> c.links().heal(link));
        });
    }

    /** A link cut both ways. */
    static Fault partition(String from, String to) {
        return fault("partition", c -> {
            Link link = c.links().link(from, to);
            c.links().partition(link);
            return new Hit(link.describe() + " (both ways)", () -> c.links().heal(link));
        });
    }

    /** A link that delivers requests and drops every answer. */
    static Fault dropReplies(String from, String to) {
        return fault("partition", c -> {
            Link link = c.links().link(from, to);
            c.links().dropReplies(link);
            return new Hit(
                    link.describe() + " (answers dropped)", () -> c.links().heal(link));
        });
    }

    static Fault latency(String from, String to, long millis, long jitter) {
        return fault("latency", c -> {
            Link link = c.links().link(from, to);
            c.links().add(link, Toxic.latency("latency", Toxic.DOWNSTREAM, millis, jitter));
            return new Hit(link.describe() + " (" + millis + " ms +- " + jitter + " ms)", () -> c.links()
                    .heal(link));
        });
    }

    static Fault bandwidth(String from, String to, long kilobytesPerSecond) {
        return fault("bandwidth", c -> {
            Link link = c.links().link(from, to);
            c.links().add(link, Toxic.bandwidth("bandwidth", Toxic.DOWNSTREAM, kilobytesPerSecond));
            c.links().add(link, Toxic.bandwidth("bandwidth-up", Toxic.UPSTREAM, kilobytesPerSecond));
            return new Hit(link.describe() + " (" + kilobytesPerSecond + " KB/s)", () -> c.links()
                    .heal(link));
        });
    }

    /** Answers cut off after a few hundred bytes on half the connections, the others reset after 50 ms. */
    static Fault reset(String from, String to) {
        return fault("reset", c -> {
            Link link = c.links().link(from, to);
            c.links().add(link, Toxic.limitData("cut", Toxic.DOWNSTREAM, 300).withToxicity(0.5));
            c.links().add(link, Toxic.resetPeer("reset", Toxic.UPSTREAM, 50).withToxicity(0.5));
            return new Hit(link.describe() + " (answers cut, connections reset)", () -> c.links()
                    .heal(link));
        });
    }

    /** kill -9 of an instance ("exchange" for the active exchange), restarted when healed. */
    static Fault kill(String instance) {
        return kill(instance, false);
    }

    /**
     * kill -9 of an instance ("exchange" for the active exchange), restarted when healed; with {@code inBackground}
     * the schedule goes on while it restarts, and the fault ends once it is ready again.
     */
    static Fault kill(String instance, boolean inBackground) {
        return fault("kill", c -> {
            String victim = instance.equals("exchange") ? activeExchange(c.cluster()) : instance;
            c.cluster().kill(victim);
            return new Hit(victim, () -> c.cluster().restart(victim), Map::of, inBackground);
        });
    }

    /** SIGSTOP of an instance ("exchange" for the active exchange), SIGCONT when healed. */
    static Fault pause(String instance) {
        return fault("pause", c -> {
            String victim = instance.equals("exchange") ? activeExchange(c.cluster()) : instance;
            c.cluster().freeze(victim);
            return new Hit(victim, () -> c.cluster().thaw(victim));
        });
    }

    /**
     * The wall clock of the instance {@link LinkedCluster#clock()} names stepped {@code ahead}, past the clock check's
     * limit (common's {@code ClockProperties.MAX_OFFSET}, 500 ms), and back when healed. Only that instance's readiness
     * check can see it: it measures its clock against the database's and reports itself not ready, and its callers'
     * health-checked load balancing then stops sending it calls. Waits (at most 10 s) until it is seen not ready before
     * the fault's time starts, and when healed until it is ready again (at most 20 s). Sees: how long after the step it
     * went not ready and after the step back it was ready again, and the calls it served on {@code path} before it went
     * not ready, while it was, and while it was once its callers had had a second to notice.
     */
    static Fault clockStep(Duration ahead, String path) {
        return fault("clock", c -> {
            SteppedClock clock = c.clock()
                    .orElseThrow(() -> new IllegalStateException(
                            "no instance's clock can be stepped: run .ci/install-libfaketime.sh"));
            String instance = clock.instance();
            ReadinessWatch watch = new ReadinessWatch(url(c.cluster(), instance));
            long stepped = System.nanoTime();
            long servedAtStep = watch.served(path);
            clock.step(ahead);
            long notReady = watch.await(false, stepped, Duration.ofSeconds(10));
            long servedAtNotReady = watch.served(path);
            Map<String, Object> seen = new LinkedHashMap<>();
            seen.put("notReadyAfterMillis", notReady < 0 ? -1 : (notReady - stepped) / 1_000_000);
            seen.put("servedBeforeNotReady", delta(servedAtStep, servedAtNotReady));
            seen.put("millisBeforeNotReady", (System.nanoTime() - stepped) / 1_000_000);
            // The callers' health checks run every 500 ms or so: calls already on their way, and those of the first
            // check, still arrive. What arrives after that is what load balancing still sends to a not-ready replica.
            Buyers.sleep(CALLERS_NOTICE.toMillis());
            long settled = System.nanoTime();
            long servedAtSettled = watch.served(path);
            return new Hit(
                    instance + " (clock " + ahead.toSeconds() + " s ahead)",
                    () -> {
                        long servedAtHeal = watch.served(path);
                        long stepBack = System.nanoTime();
                        seen.put("servedWhileNotReady", delta(servedAtNotReady, servedAtHeal));
                        seen.put("millisNotReadyBeforeHeal", notReady < 0 ? 0 : (stepBack - notReady) / 1_000_000);
                        seen.put("servedOnceCallersNoticed", delta(servedAtSettled, servedAtHeal));
                        seen.put("millisOnceCallersNoticed", (stepBack - settled) / 1_000_000);
                        clock.step(Duration.ZERO);
                        long ready = watch.await(true, stepBack, Duration.ofSeconds(20));
                        seen.put("readyAgainAfterMillis", ready < 0 ? -1 : (ready - stepBack) / 1_000_000);
                        watch.close();
                    },
                    () -> Collections.unmodifiableMap(new LinkedHashMap<>(seen)));
        });
    }

    private static long delta(long before, long after) {
        return before < 0 || after < 0 ? -1 : after - before;
    }

    /** The base URL of an instance ("catalog-2"), reached directly. */
    static String url(Cluster cluster, String instance) {
        return cluster.instances().stream()
                .filter(i -> i.name().equals(instance))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no instance " + instance))
                .url();
    }

    private static Fault fault(String kind, java.util.function.Function<LinkedCluster, Hit> apply) {
        return new Fault() {
            @Override
            public String kind() {
                return kind;
            }

            @Override
            public Hit apply(LinkedCluster cluster) {
                return apply.apply(cluster);
            }
        };
    }

    static String activeExchange(Cluster cluster) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            List<String> urls = cluster.urls("exchange");
            for (int i = 0; i < urls.size(); i++) {
                if (LeaderWatch.role(urls.get(i)).equals("ACTIVE")) return "exchange-" + (i + 1);
            }
            Buyers.sleep(100);
        }
        throw new IllegalStateException("no exchange instance is active");
    }

    /** Where a clock step is seen: the calls the stepped instance serves (a catalog: the order services' reservations). */
    static final String CLOCK_INSTANCE = "catalog-2";

    static final String CLOCK_SERVED_PATH = "/internal/reservations";

    /** How long after a replica went not ready its callers' load balancers are taken to have noticed. */
    private static final Duration CALLERS_NOTICE = Duration.ofSeconds(1);

    /**
     * Every kind of fault at least once, on every kind of link, one at a time: the exchange leader cut from its
     * database first (the case the lease and its fencing exist for), then an order service that loses its database's
     * answers in the middle of confirmations, a frontend cut from an order service, a catalog cut from a frontend's
     * invalidation socket, slow and thin links, answers cut off, a killed catalog and a killed exchange leader, a
     * frozen order service, and with {@code clock} a catalog whose clock steps 2 s ahead.
     */
    static List<List<Fault>> schedule(boolean clock) {
        List<Fault> faults = new ArrayList<>(List.of(
                exchangeLeaderFromDatabase(),
                dropReplies("order-1", NetworkLinks.POSTGRES),
                latency("frontend-2", "catalog-1", 150, 100),
                partition("frontend-1", "order-2"),
                reset("frontend-1", "catalog-1"),
                bandwidth("order-2", "catalog-2", 4),
                partition("catalog-2", "frontend-1"),
                kill("exchange"),
                pause("order-2"),
                dropReplies("frontend-2", "exchange-1"),
                latency("catalog-1", NetworkLinks.POSTGRES, 100, 50),
                kill("catalog-2")));
        if (clock) faults.add(6, clockStep(Duration.ofSeconds(2), CLOCK_SERVED_PATH));
        return oneAtATime(faults);
    }

    /**
     * The CI test's short schedule: every kind of fault, each on a link the load uses, two or three at a time on
     * parts of the system that do not share them (the exchange's faults beside the bookstore's), so that it fits in
     * four windows. The exchange leader cut from its database (its traders still reach it) while an order service
     * loses its database's answers; the new leader killed (restarting while the schedule goes on) while a frontend's
     * link to an order service is slow and an order service's link to a catalog thin; answers of a catalog to an order
     * service cut off while the other order service is frozen; a catalog's clock 2 s ahead.
     */
    static List<List<Fault>> shortSchedule(boolean clock) {
        List<List<Fault>> steps = new ArrayList<>(List.of(
                List.of(exchangeLeaderFromDatabase(), dropReplies("order-1", NetworkLinks.POSTGRES)),
                List.of(
                        kill("exchange", true),
                        latency("frontend-1", "order-1", 150, 100),
                        bandwidth("order-2", "catalog-2", 4)),
                List.of(reset("order-1", "catalog-1"), pause("order-2"))));
        if (clock) steps.add(List.of(clockStep(Duration.ofSeconds(2), CLOCK_SERVED_PATH)));
        return steps;
    }
}
