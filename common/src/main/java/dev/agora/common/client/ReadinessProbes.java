package dev.agora.common.client;

import java.net.URI;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.web.client.RestClient;
import reactor.core.publisher.Mono;

/**
 * The readiness probe of every replica of one service, as Spring Cloud LoadBalancer's health check runs it, and the
 * replicas whose latest probe was answered with "not ready". The health check itself only keeps the replicas that
 * answered 200; a replica missing from its list may have said it is not ready (alive, and it must get no calls) or
 * may not have answered in time (down, or only slow on a starved machine). Calls tell the two apart when the list
 * is empty ({@link ReplicaClient}'s last resort): only the first kind is left out.
 */
final class ReadinessProbes {

    private final RestClient probes;
    private final Set<URI> answeredNotReady = ConcurrentHashMap.newKeySet();

    ReadinessProbes(RestClient probes) {
        this.probes = probes;
    }

    /** The health check's probe of {@code instance} ({@code HealthCheckServiceInstanceListSupplier}'s function). */
    Mono<Boolean> alive(ServiceInstance instance, String path) {
        return Mono.fromCallable(() -> probe(instance.getUri(), path));
    }

    private boolean probe(URI replica, String path) {
        URI uri = URI.create(replica.toString() + (path.startsWith("/") ? path : "/" + path));
        int status;
        try {
            status = probes.get().uri(uri).exchange((request, response) -> response.getStatusCode()
                    .value());
        } catch (RuntimeException noAnswer) {
            answeredNotReady.remove(replica);
            return false;
        }
        if (status == 200) {
            answeredNotReady.remove(replica);
            return true;
        }
        answeredNotReady.add(replica);
        return false;
    }

    /** Whether {@code replica} answered its latest probe, and not with 200. */
    boolean answeredNotReady(URI replica) {
        return answeredNotReady.contains(replica);
    }
}
