package dev.agora.frontend.files;

import dev.agora.common.client.CallSafety;
import dev.agora.common.client.ReplicaClients;
import dev.agora.frontend.upstream.Tier;
import dev.agora.frontend.upstream.Upstream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.stereotype.Component;

/**
 * The one place the files feature learns which catalog nodes there are and how to call them, so it can be wired to
 * another balancer without touching the rest: index reads go through the frontend's replica clients; streamed
 * transfers get base URLs here, in the order to try them: the nodes the replica clients admit (health checks
 * passing, breaker closed) first, the others after them.
 */
@Component
final class CatalogNodes {

    private final ReplicaClients replicas;
    private final DiscoveryClient discovery;
    private final Upstream upstream;
    private final AtomicInteger turn = new AtomicInteger();

    CatalogNodes(ReplicaClients replicas, DiscoveryClient discovery, Upstream upstream) {
        this.replicas = replicas;
        this.discovery = discovery;
        this.upstream = upstream;
    }

    /** Every catalog node, a different healthy one first on each call; nodes found unhealthy come last. */
    List<URI> inTurn() {
        Set<URI> admitted = admitted();
        List<URI> healthy = new ArrayList<>();
        List<URI> rest = new ArrayList<>();
        for (URI node : all()) (admitted.contains(node) ? healthy : rest).add(node);
        if (!healthy.isEmpty()) {
            int start = Math.floorMod(turn.getAndIncrement(), healthy.size());
            List<URI> rotated = new ArrayList<>(healthy.subList(start, healthy.size()));
            rotated.addAll(healthy.subList(0, start));
            healthy = rotated;
        }
        healthy.addAll(rest);
        return healthy;
    }

    /** The nodes holding a file, in the index's order, those known unhealthy last. */
    List<URI> holders(List<URI> holders) {
        Set<URI> admitted = admitted();
        Set<URI> known = Set.copyOf(all());
        List<URI> ordered = new ArrayList<>();
        List<URI> unhealthy = new ArrayList<>();
        for (URI holder : holders) {
            URI base = base(holder);
            (known.contains(base) && !admitted.contains(base) ? unhealthy : ordered).add(holder);
        }
        ordered.addAll(unhealthy);
        return ordered;
    }

    private List<URI> all() {
        return discovery.getInstances(Tier.CATALOG.serviceId()).stream()
                .map(ServiceInstance::getUri)
                .map(CatalogNodes::base)
                .toList();
    }

    private Set<URI> admitted() {
        return replicas.admitted(Tier.CATALOG.serviceId()).stream()
                .map(CatalogNodes::base)
                .collect(Collectors.toSet());
    }

    /** A JSON read of the catalog (the index), with the frontend's failover, hedging and problem pass-on. */
    <T> T read(String pathAndQuery, ParameterizedTypeReference<T> type) {
        return upstream.call(Tier.CATALOG, CallSafety.IDEMPOTENT, replica -> replica.client()
                .get()
                .uri(URI.create(replica.uri() + pathAndQuery))
                .retrieve()
                .body(type));
    }

    private static URI base(URI uri) {
        String text = uri.toString();
        return URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
    }
}
