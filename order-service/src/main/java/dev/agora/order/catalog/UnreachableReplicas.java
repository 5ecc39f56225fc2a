package dev.agora.order.catalog;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Passive ejection: a replica a call could not reach (refused, reset, timed out) is left out of rotation
 * for a moment, so the retry goes to another replica at once instead of trusting round robin, which under
 * concurrent calls may hand the retry the same dead replica. The health checks take over within a second.
 * When no healthy replica is left to try, it falls back to every discovered one (see {@link #candidates}).
 * As an interceptor it must run after the load balancer's, where the request carries the chosen replica.
 */
final class UnreachableReplicas implements ClientHttpRequestInterceptor {

    private static final Logger log = LoggerFactory.getLogger(UnreachableReplicas.class);

    private final long ejectionNanos;
    private final Map<String, Long> ejectedUntil = new ConcurrentHashMap<>();

    UnreachableReplicas(Duration ejection) {
        this.ejectionNanos = ejection.toNanos();
    }

    @Override
    public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
            throws IOException {
        try {
            ClientHttpResponse response = execution.execute(request, body);
            // An answer proves the replica reachable again (it was tried because nothing else was left).
            if (!ejectedUntil.isEmpty() && ejectedUntil.remove(authority(request.getURI())) != null) {
                log.info("Catalog replica {} answers again", authority(request.getURI()));
            }
            return response;
        } catch (IOException unreachable) {
            String replica = authority(request.getURI());
            if (ejectedUntil.put(replica, System.nanoTime() + ejectionNanos) == null) {
                log.info(
                        "Catalog replica {} unreachable ({}); skipped for {} ms",
                        replica,
                        unreachable,
                        ejectionNanos / 1_000_000);
            }
            throw unreachable;
        }
    }

    /**
     * Where to send a call: the healthy replicas not just found unreachable; when there are none (health
     * checks lag, or a starved machine answers them late), any discovered replica not found unreachable;
     * when every one failed lately, the one that failed longest ago (a frozen replica that thawed rather
     * than the one that just died). Trying is better than answering "no replica".
     */
    List<ServiceInstance> candidates(List<ServiceInstance> healthy, Supplier<List<ServiceInstance>> discovered) {
        List<ServiceInstance> reachable = notEjected(healthy);
        if (!reachable.isEmpty()) return reachable;
        List<ServiceInstance> all = discovered.get();
        List<ServiceInstance> others = notEjected(all);
        if (!others.isEmpty()) return others;
        return all.stream()
                .min((a, b) -> Long.signum(ejectedUntil(a) - ejectedUntil(b)))
                .map(List::of)
                .orElse(all);
    }

    private long ejectedUntil(ServiceInstance instance) {
        return ejectedUntil.getOrDefault(authority(instance.getUri()), System.nanoTime());
    }

    private List<ServiceInstance> notEjected(List<ServiceInstance> instances) {
        if (ejectedUntil.isEmpty()) return instances;
        long now = System.nanoTime();
        ejectedUntil.values().removeIf(until -> until - now <= 0);
        return instances.stream()
                .filter(instance -> !ejectedUntil.containsKey(authority(instance.getUri())))
                .toList();
    }

    private static String authority(URI uri) {
        return uri.getHost() + ":" + uri.getPort();
    }
}
