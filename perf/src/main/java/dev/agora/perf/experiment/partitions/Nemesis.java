package dev.agora.perf.experiment.partitions;

import dev.agora.launcher.cluster.Cluster;
import dev.agora.launcher.cluster.Link;
import dev.agora.launcher.cluster.NetworkLinks;
import dev.agora.launcher.toxiproxy.Toxic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Applies faults to a {@link LinkedCluster} one after the other, each for a while and then healed: partitions of
 * single links (both ways, or one way by dropping the answers), latency with jitter, a bandwidth limit, connections
 * cut in the middle of an answer, kill -9 and SIGSTOP of single instances. Remembers when each was applied and healed.
 */
final class Nemesis {

    /** The kinds of fault, as the report names them. */
    static final List<String> KINDS = List.of("partition", "latency", "bandwidth", "reset", "kill", "pause");

    /** One fault as applied: kind, what it hit, and when (nanoTime) it started and was healed. */
    record Applied(String kind, String target, long startNanos, long endNanos) {}

    /** A fault to apply: {@link Fault#apply} returns what it hit and how to heal it. */
    interface Fault {
        String kind();

        Hit apply(LinkedCluster cluster);
    }

    /** What a fault hit, and how to undo it. */
    record Hit(String target, Runnable heal) {}

    private final LinkedCluster cluster;
    private final Consumer<String> log;
    private final List<Applied> applied = new ArrayList<>();

    Nemesis(LinkedCluster cluster, Consumer<String> log) {
        this.cluster = cluster;
        this.log = log;
    }

    /** Applies each fault for {@code length}, heals it, waits {@code gap}; stops early when {@code stop} is set. */
    void run(List<Fault> schedule, Duration length, Duration gap) throws InterruptedException {
        for (Fault fault : schedule) {
            long started = System.nanoTime();
            Hit hit = fault.apply(cluster);
            log.accept("  nemesis: " + fault.kind() + " " + hit.target());
            try {
                Thread.sleep(length.toMillis());
            } finally {
                hit.heal().run();
                applied.add(new Applied(fault.kind(), hit.target(), started, System.nanoTime()));
                log.accept("  nemesis: healed " + fault.kind() + " " + hit.target());
            }
            Thread.sleep(gap.toMillis());
        }
    }

    List<Applied> applied() {
        return List.copyOf(applied);
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
        return fault("kill", c -> {
            String victim = instance.equals("exchange") ? activeExchange(c.cluster()) : instance;
            c.cluster().kill(victim);
            return new Hit(victim, () -> c.cluster().restart(victim));
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

    /**
     * Every kind of fault at least once, on every kind of link: the exchange leader cut from its database first (the
     * case the lease and its fencing exist for), then an order service that loses its database's answers in the middle
     * of confirmations, a frontend cut from an order service, a catalog cut from a frontend's invalidation socket, slow
     * and thin links, answers cut off, a killed catalog and a killed exchange leader, a frozen order service.
     */
    static List<Fault> schedule() {
        return List.of(
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
                kill("catalog-2"));
    }

    /** The short schedule of the CI test: one fault of each kind, the exchange leader's partition first. */
    static List<Fault> shortSchedule() {
        return List.of(
                exchangeLeaderFromDatabase(),
                dropReplies("order-1", NetworkLinks.POSTGRES),
                latency("frontend-2", "catalog-1", 150, 100),
                reset("frontend-1", "catalog-1"),
                bandwidth("order-2", "catalog-2", 4),
                pause("order-2"),
                kill("exchange"));
    }
}
