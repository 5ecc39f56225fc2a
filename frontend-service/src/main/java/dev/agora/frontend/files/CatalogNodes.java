package dev.agora.frontend.files;

import dev.agora.common.client.CallSafety;
import dev.agora.common.client.FailoverClient;
import dev.agora.common.client.Instance;
import dev.agora.frontend.upstream.Tier;
import dev.agora.frontend.upstream.Upstream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.stereotype.Component;

/**
 * The one place the files feature learns which catalog nodes there are and how to call them, so it can be wired to
 * another balancer without touching the rest: index reads go through the frontend's failover client; streamed
 * transfers get base URLs here, in the order to try them.
 */
@Component
final class CatalogNodes {

    private final FailoverClient failover;
    private final Upstream upstream;
    private final AtomicInteger turn = new AtomicInteger();

    CatalogNodes(FailoverClient failover, Upstream upstream) {
        this.failover = failover;
        this.upstream = upstream;
    }

    /** Every catalog node, a different healthy one first on each call; nodes found unhealthy come last. */
    List<URI> inTurn() {
        List<Instance> instances = failover.instances(Tier.CATALOG.serviceId());
        List<URI> healthy = new ArrayList<>();
        List<URI> rest = new ArrayList<>();
        for (Instance instance : instances) (instance.admitted() ? healthy : rest).add(instance.uri());
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
        List<URI> unhealthy = failover.instances(Tier.CATALOG.serviceId()).stream()
                .filter(instance -> !instance.admitted())
                .map(Instance::uri)
                .map(CatalogNodes::base)
                .toList();
        List<URI> ordered = new ArrayList<>(
                holders.stream().filter(h -> !unhealthy.contains(base(h))).toList());
        holders.stream().filter(h -> unhealthy.contains(base(h))).forEach(ordered::add);
        return ordered;
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
