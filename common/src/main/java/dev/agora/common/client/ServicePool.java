package dev.agora.common.client;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The replicas of one service, the choice among them, how long a call waits before it is hedged, and how many
 * hedges its calls may still send.
 */
final class ServicePool {

    private final String serviceId;
    private final BalancingPolicy policy;
    private final Function<URI, Instance> instanceFactory;
    private final HedgeDelay hedgeDelay;
    private final HedgeBudget hedgeBudget;
    private final AtomicInteger turn = new AtomicInteger();
    private volatile List<Instance> instances = List.of();

    ServicePool(
            String serviceId,
            BalancingPolicy policy,
            HedgeDelay hedgeDelay,
            HedgeBudget hedgeBudget,
            Function<URI, Instance> instanceFactory) {
        this.serviceId = serviceId;
        this.policy = policy;
        this.hedgeDelay = hedgeDelay;
        this.hedgeBudget = hedgeBudget;
        this.instanceFactory = instanceFactory;
    }

    String serviceId() {
        return serviceId;
    }

    List<Instance> instances() {
        return instances;
    }

    HedgeDelay hedgeDelay() {
        return hedgeDelay;
    }

    HedgeBudget hedgeBudget() {
        return hedgeBudget;
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

    /**
     * An admitted replica not in {@code tried}. When there is none and {@code orEjected}: the replica not in
     * {@code tried} ejected longest ago by a call (timeout, 5xx, lost hedges, but not a refused connection)
     * whose health probes still pass: it may only have been slow on a starved machine, and trying it beats
     * answering 503. {@code null} when there is none: every replica was tried or is down (refused, or failing
     * its probes: dead or frozen), so the caller gets its 503 at once.
     */
    Instance choose(List<Instance> tried, boolean orEjected) {
        List<Instance> all = instances;
        List<Instance> candidates = new ArrayList<>(all.size());
        for (Instance instance : all) {
            if (instance.admitted() && !tried.contains(instance)) candidates.add(instance);
        }
        if (candidates.size() == 1) return candidates.getFirst();
        if (candidates.size() > 1) return policy.pick(candidates, turn.getAndIncrement());
        if (!orEjected) return null;
        Instance oldest = null;
        for (Instance instance : all) {
            if (instance.admitted() || instance.refused() || instance.probesFailing() || tried.contains(instance)) {
                continue;
            }
            if (oldest == null || instance.ejectedAtNanos() - oldest.ejectedAtNanos() < 0) oldest = instance;
        }
        return oldest;
    }

    /** Whether a replica other than {@code instance} is admitted. */
    boolean othersAdmitted(Instance instance) {
        for (Instance other : instances) {
            if (other != instance && other.admitted()) return true;
        }
        return false;
    }
}
