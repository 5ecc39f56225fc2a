package dev.agora.frontend.files;

import dev.agora.frontend.upstream.Tier;
import dev.agora.frontend.upstream.Upstream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import org.springframework.cloud.loadbalancer.support.LoadBalancerClientFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * The one place the files feature learns which catalog nodes there are and how to call them, so it can be wired to
 * another balancer without touching the rest: index reads go through the catalog's load-balanced client
 * ({@link CatalogFiles}); streamed transfers get base URLs here, in the order to try them: the nodes the load balancer
 * offers calls to now (health checks passing, breaker not open) first, the others after them.
 */
@Component
final class CatalogNodes {

    private final LoadBalancerClientFactory loadBalancers;
    private final DiscoveryClient discovery;
    private final Upstream upstream;
    private final CatalogFiles index;
    private final AtomicInteger turn = new AtomicInteger();

    CatalogNodes(LoadBalancerClientFactory loadBalancers, DiscoveryClient discovery, Upstream upstream) {
        this.loadBalancers = loadBalancers;
        this.discovery = discovery;
        this.upstream = upstream;
        this.index = upstream.client(Tier.CATALOG, CatalogFiles.class);
    }

    /**
     * How long one reading of the nodes and their health serves transfers. Reading it costs more than a small
     * download's own work in the frontend (discovery builds each instance's URI through {@code String.format}, the
     * breakers are looked up by name), so it is taken at most this often; health checks and breakers change on a
     * scale of seconds, and a node that died since is passed over on its refused connection.
     */
    private static final long REFRESH_NANOS = Duration.ofMillis(100).toNanos();

    private volatile Snapshot snapshot;

    /** The nodes at one moment: admitted ones, the others, and the set of each for lookups. */
    private record Snapshot(long takenAt, List<URI> healthy, List<URI> rest, Set<URI> admitted, Set<URI> known) {}

    /** Every catalog node, a different healthy one first on each call; nodes found unhealthy come last. */
    List<URI> inTurn() {
        Snapshot now = snapshot();
        List<URI> ordered = new ArrayList<>(now.healthy().size() + now.rest().size());
        List<URI> healthy = now.healthy();
        if (!healthy.isEmpty()) {
            int start = Math.floorMod(turn.getAndIncrement(), healthy.size());
            ordered.addAll(healthy.subList(start, healthy.size()));
            ordered.addAll(healthy.subList(0, start));
        }
        ordered.addAll(now.rest());
        return ordered;
    }

    /** The nodes holding a file, in the index's order, those known unhealthy last. */
    List<URI> holders(List<URI> holders) {
        Snapshot now = snapshot();
        List<URI> ordered = new ArrayList<>();
        List<URI> unhealthy = new ArrayList<>();
        for (URI holder : holders) {
            URI base = base(holder);
            (now.known().contains(base) && !now.admitted().contains(base) ? unhealthy : ordered).add(holder);
        }
        ordered.addAll(unhealthy);
        return ordered;
    }

    private Snapshot snapshot() {
        Snapshot current = snapshot;
        long now = System.nanoTime();
        if (current != null && now - current.takenAt() < REFRESH_NANOS) return current;
        Set<URI> admitted = admitted();
        List<URI> all = all();
        List<URI> healthy = new ArrayList<>();
        List<URI> rest = new ArrayList<>();
        for (URI node : all) (admitted.contains(node) ? healthy : rest).add(node);
        Snapshot fresh = new Snapshot(now, List.copyOf(healthy), List.copyOf(rest), admitted, Set.copyOf(all));
        snapshot = fresh;
        return fresh;
    }

    private List<URI> all() {
        return discovery.getInstances(Tier.CATALOG.serviceId()).stream()
                .map(ServiceInstance::getUri)
                .map(CatalogNodes::base)
                .toList();
    }

    /** The load balancer's list now: health-checked, ejected nodes left out (all of them when every one is). */
    private Set<URI> admitted() {
        var listed = loadBalancers.getInstance(Tier.CATALOG.serviceId(), ServiceInstanceListSupplier.class);
        List<ServiceInstance> now =
                listed == null ? null : Mono.from(listed.get()).block(Duration.ofSeconds(5));
        return now == null
                ? Set.of()
                : now.stream()
                        .map(ServiceInstance::getUri)
                        .map(CatalogNodes::base)
                        .collect(Collectors.toSet());
    }

    /** A read of the catalog's index, with the frontend's failover and problem pass-on ({@link Upstream#call}). */
    <T> T read(Function<CatalogFiles, T> call) {
        return upstream.call(Tier.CATALOG, () -> call.apply(index));
    }

    private static URI base(URI uri) {
        String text = uri.toString();
        return URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
    }
}
