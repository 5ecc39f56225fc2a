package dev.agora.launcher.cluster;

import dev.agora.launcher.toxiproxy.Toxic;
import dev.agora.launcher.toxiproxy.Toxiproxy;
import dev.agora.local.cluster.FreePorts;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every link between a service instance and what it calls, each through a Toxiproxy proxy of its own on 127.0.0.1,
 * so that one link can be cut, slowed or broken while every other stays as it was: a frontend to each catalog, order
 * service and exchange instance; an order service to each catalog; a catalog to each frontend (the invalidation
 * sockets); every instance to PostgreSQL. Pass it to {@link Cluster#start(ClusterSpec, NetworkLinks)}: the proxies
 * are made once PostgreSQL runs, and each instance is given the proxies' addresses instead of its peers' (the
 * {@code *_INSTANCES} lists and {@code DATABASE_URL}). Clients outside the cluster (load, checks) still reach every
 * instance directly at the URLs {@link Cluster#urls} gives.
 *
 * <p>Two things stay direct: the token keys every service fetches from the frontends ({@code AGORA_SECURITY_AUTHORITIES} is
 * pinned to the frontends' own URLs), and a frontend's advertised URL, which the catalogs now do not recognise, so
 * a buy waits for the buying frontend's acknowledgement of its invalidation too (correct, a little slower).
 */
public final class NetworkLinks {

    private static final Logger log = LoggerFactory.getLogger(NetworkLinks.class);

    /** The target name of an instance's link to its PostgreSQL database. */
    public static final String POSTGRES = "postgres";

    private static final String PARTITION_UP = "partition-upstream";
    private static final String PARTITION_DOWN = "partition-downstream";

    private final Toxiproxy toxiproxy;
    private final Map<String, Link> links = new LinkedHashMap<>();
    /** Links whose toxics dropped data: healing them also drops their connections. */
    private final Map<String, Boolean> lossy = new java.util.concurrent.ConcurrentHashMap<>();

    private int postgresPort;

    public NetworkLinks(Toxiproxy toxiproxy) {
        this.toxiproxy = toxiproxy;
    }

    public Toxiproxy toxiproxy() {
        return toxiproxy;
    }

    /** Makes a proxy for every link of {@code spec}'s cluster; called once PostgreSQL listens on its port. */
    synchronized void open(ClusterSpec spec, int postgresPort) {
        if (!links.isEmpty()) throw new IllegalStateException("These links belong to a cluster already");
        this.postgresPort = postgresPort;
        for (Tier tier : Tier.values()) {
            for (int index = 1; index <= spec.replicas(tier); index++) {
                String from = tier.instanceName(index);
                for (Tier peer : peersOf(tier)) {
                    for (int peerIndex = 1; peerIndex <= spec.replicas(peer); peerIndex++) {
                        add(from, peer.instanceName(peerIndex), "127.0.0.1:" + peer.port(peerIndex, spec.portOffset()));
                    }
                }
                if (tier.database().isPresent()) add(from, POSTGRES, "localhost:" + postgresPort);
            }
        }
        log.info("{} links through Toxiproxy at {}", links.size(), toxiproxy.base());
    }

    private void add(String from, String to, String upstream) {
        Link link = new Link(from, to, from + "-to-" + to, FreePorts.next(), upstream);
        toxiproxy.createProxy(link.proxy(), link.listenPort(), link.upstream());
        links.put(key(from, to), link);
    }

    /** Whom an instance of {@code tier} calls over HTTP (or WebSocket). */
    private static List<Tier> peersOf(Tier tier) {
        return switch (tier) {
            case FRONTEND -> List.of(Tier.CATALOG, Tier.ORDER, Tier.EXCHANGE);
            case ORDER -> List.of(Tier.CATALOG);
            case CATALOG -> List.of(Tier.FRONTEND);
            case EXCHANGE -> List.of();
        };
    }

    /**
     * Points an instance's peers and database at its links' proxies, in the environment the starter built for it
     * (before the spec's own overrides are applied).
     */
    synchronized void route(Tier tier, int index, ClusterSpec spec, Map<String, String> env) {
        String from = tier.instanceName(index);
        if (!env.containsKey("AGORA_SECURITY_AUTHORITIES") && spec.replicas(Tier.FRONTEND) > 0) {
            env.put(
                    "AGORA_SECURITY_AUTHORITIES",
                    String.join(
                            ",",
                            IntStream.rangeClosed(1, spec.replicas(Tier.FRONTEND))
                                    .mapToObj(i -> "http://127.0.0.1:" + Tier.FRONTEND.port(i, spec.portOffset()))
                                    .toList()));
        }
        for (Tier peer : peersOf(tier)) {
            List<String> urls = new ArrayList<>();
            for (int peerIndex = 1; peerIndex <= spec.replicas(peer); peerIndex++) {
                urls.add(link(from, peer.instanceName(peerIndex)).url());
            }
            env.put(peer.instancesVariable(), String.join(",", urls));
        }
        String database = env.get("DATABASE_URL");
        if (database != null && tier.database().isPresent()) {
            Link toPostgres = link(from, POSTGRES);
            String direct = "//localhost:" + postgresPort + "/";
            if (!database.contains(direct)) {
                throw new IllegalStateException("Unexpected database URL " + database + " (expected " + direct + ")");
            }
            env.put("DATABASE_URL", database.replace(direct, "//127.0.0.1:" + toPostgres.listenPort() + "/"));
        }
    }

    /** Every link, in the order they were made (by tier and instance). */
    public synchronized List<Link> links() {
        return List.copyOf(links.values());
    }

    /** The link from one instance to another (or to {@value #POSTGRES}). */
    public synchronized Link link(String from, String to) {
        return find(from, to)
                .orElseThrow(() ->
                        new IllegalArgumentException("No link " + from + " -> " + to + "; links: " + links.keySet()));
    }

    public synchronized Optional<Link> find(String from, String to) {
        return Optional.ofNullable(links.get(key(from, to)));
    }

    /** The links an instance calls out on. */
    public synchronized List<Link> from(String instance) {
        return links.values().stream()
                .filter(link -> link.from().equals(instance))
                .toList();
    }

    /** The links on which an instance (or {@value #POSTGRES}) is called. */
    public synchronized List<Link> to(String instance) {
        return links.values().stream()
                .filter(link -> link.to().equals(instance))
                .toList();
    }

    /**
     * A silent partition of the link, both ways: connections stay open (and new ones are accepted by the proxy), but
     * nothing passes in either direction, as when packets are dropped between two machines.
     */
    public void partition(Link link) {
        lossy.put(link.proxy(), true);
        toxiproxy.addToxic(link.proxy(), Toxic.drop(PARTITION_UP, Toxic.UPSTREAM));
        toxiproxy.addToxic(link.proxy(), Toxic.drop(PARTITION_DOWN, Toxic.DOWNSTREAM));
    }

    /** A one-way partition: requests arrive and are acted on, their answers are dropped. */
    public void dropReplies(Link link) {
        lossy.put(link.proxy(), true);
        toxiproxy.addToxic(link.proxy(), Toxic.drop(PARTITION_DOWN, Toxic.DOWNSTREAM));
    }

    /** Adds {@code toxic} to the link (latency, bandwidth, a reset, ...). */
    public void add(Link link, Toxic toxic) {
        if (toxic.type().equals("timeout") || toxic.type().equals("limit_data")) lossy.put(link.proxy(), true);
        toxiproxy.addToxic(link.proxy(), toxic);
    }

    /**
     * Takes every toxic off the link. When one of them dropped data, the link's connections are closed as well (the
     * proxy is disabled and enabled again): a proxy that dropped bytes cannot deliver them later as TCP would after
     * a partition heals, so such a connection is dead either way, and closing it is what a peer eventually sees of a
     * TCP connection that timed out.
     */
    public void heal(Link link) {
        for (String toxic : toxiproxy.toxics(link.proxy())) toxiproxy.removeToxic(link.proxy(), toxic);
        if (lossy.remove(link.proxy()) != null) {
            toxiproxy.setEnabled(link.proxy(), false);
            toxiproxy.setEnabled(link.proxy(), true);
        }
    }

    /** Heals every link. */
    public void healAll() {
        for (Link link : links()) heal(link);
    }

    private static String key(String from, String to) {
        return from + "->" + to;
    }
}
