package dev.agora.common.client;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/** The replicas of one service and the choice among them. */
final class ServicePool {

    private final String serviceId;
    private final BalancingPolicy policy;
    private final Function<URI, Instance> instanceFactory;
    private final AtomicInteger turn = new AtomicInteger();
    private volatile List<Instance> instances = List.of();

    ServicePool(String serviceId, BalancingPolicy policy, Function<URI, Instance> instanceFactory) {
        this.serviceId = serviceId;
        this.policy = policy;
        this.instanceFactory = instanceFactory;
    }

    String serviceId() {
        return serviceId;
    }

    List<Instance> instances() {
        return instances;
    }

    /** Adopts a fresh instance list, keeping the state of replicas that are still listed. */
    synchronized void update(List<URI> uris) {
        Map<URI, Instance> known = new LinkedHashMap<>();
        for (Instance instance : instances) known.put(instance.uri(), instance);
        List<Instance> next = new ArrayList<>(uris.size());
        for (URI uri : uris) {
            Instance instance = known.get(uri);
            next.add(instance != null ? instance : instanceFactory.apply(uri));
        }
        if (!next.equals(instances)) instances = List.copyOf(next);
    }

    /** An admitted replica not in {@code tried}, or {@code null} when there is none. */
    Instance choose(List<Instance> tried) {
        List<Instance> all = instances;
        List<Instance> candidates = new ArrayList<>(all.size());
        for (Instance instance : all) {
            if (instance.admitted() && !tried.contains(instance)) candidates.add(instance);
        }
        if (candidates.isEmpty()) return null;
        if (candidates.size() == 1) return candidates.getFirst();
        return policy.pick(candidates, turn.getAndIncrement());
    }
}
