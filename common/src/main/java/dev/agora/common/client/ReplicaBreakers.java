package dev.agora.common.client;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.loadbalancer.Request;
import org.springframework.cloud.loadbalancer.core.DelegatingServiceInstanceListSupplier;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;
import reactor.core.publisher.Flux;

/**
 * A Resilience4j breaker per replica of one service called through a {@code @LoadBalanced} client, in the two
 * extension points the libraries offer. As a {@link ClientHttpRequestInterceptor} after the load balancer's, it sees
 * each attempt on the replica chosen for it and records the outcome on that replica's breaker: a refused connection
 * ejects the replica at once, and a run of failures (5xx, timeouts, resets) by failure rate. As the filter of the load
 * balancer's instance list ({@link Admitted}) it leaves out replicas whose breaker is open, but never every replica:
 * when all are open the whole health-checked list is offered (Envoy's panic mode), since a breaker steers calls and
 * never answers one by itself. An attempt without its breaker's permission (that last resort, or a half-open breaker
 * with its trial calls taken) is sent all the same and not recorded; the breaker closes only through its own trial
 * calls. The breakers live in the Spring Cloud CircuitBreaker registry, named {@code <service>@<host:port>}, so they
 * are in {@code resilience4j.circuitbreaker.*} like the service's own breaker.
 */
public final class ReplicaBreakers implements ClientHttpRequestInterceptor {

    private static final Logger log = LoggerFactory.getLogger(ReplicaBreakers.class);
    /** What a 5xx answer is recorded as: made once, it carries no stack trace. */
    private static final IOException SERVER_ERROR = new IOException("5xx answer") {
        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    };

    private final String serviceId;
    private final CircuitBreakerRegistry registry;
    private final ConcurrentHashMap<String, CircuitBreaker> byAuthority = new ConcurrentHashMap<>();

    ReplicaBreakers(String serviceId, CircuitBreakerRegistry registry, CircuitBreakerConfig config) {
        this.serviceId = serviceId;
        this.registry = registry;
        registry.addConfiguration(serviceId, config);
    }

    public String serviceId() {
        return serviceId;
    }

    /** The breaker of the replica at {@code authority} ({@code host:port}). */
    public CircuitBreaker breaker(String authority) {
        CircuitBreaker breaker = byAuthority.get(authority);
        return breaker != null
                ? breaker
                : byAuthority.computeIfAbsent(
                        authority, named -> registry.circuitBreaker(serviceId + "@" + named, serviceId));
    }

    @Override
    public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
            throws IOException {
        CircuitBreaker breaker = breaker(request.getURI().getRawAuthority());
        boolean permitted = breaker.tryAcquirePermission();
        long started = System.nanoTime();
        ClientHttpResponse response;
        try {
            response = execution.execute(request, body);
        } catch (IOException | RuntimeException | Error failed) {
            if (neverSent(failed)) {
                if (permitted) breaker.releasePermission();
                eject(breaker, failed);
            } else if (permitted) {
                breaker.onError(System.nanoTime() - started, TimeUnit.NANOSECONDS, failed);
            }
            throw failed;
        }
        if (permitted) {
            long took = System.nanoTime() - started;
            if (response.getStatusCode().is5xxServerError()) breaker.onError(took, TimeUnit.NANOSECONDS, SERVER_ERROR);
            else breaker.onSuccess(took, TimeUnit.NANOSECONDS);
        }
        return response;
    }

    /** A replica that refused a connection is down: it gets no calls until its breaker's wait is over. */
    private static void eject(CircuitBreaker breaker, Throwable why) {
        CircuitBreaker.State state = breaker.getState();
        if (state != CircuitBreaker.State.CLOSED && state != CircuitBreaker.State.HALF_OPEN) return;
        try {
            breaker.transitionToOpenState();
            log.warn("Ejected {} ({})", breaker.getName(), why.toString());
        } catch (RuntimeException raced) {
            // another call ejected it at the same moment
        }
    }

    /** The request never reached the replica: refused, unroutable, or the connect timed out. */
    static boolean neverSent(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof ConnectException
                    || cause instanceof NoRouteToHostException
                    // Apache HttpClient's and the JDK client's connect timeouts share no common type.
                    || cause.getClass().getSimpleName().endsWith("ConnectTimeoutException")) {
                return true;
            }
            if (cause.getCause() == cause) break;
        }
        return false;
    }

    /** {@code instances} without those whose breaker is open; all of them when every breaker is open. */
    List<ServiceInstance> admitted(List<ServiceInstance> instances) {
        List<ServiceInstance> admitted = null;
        for (int i = 0; i < instances.size(); i++) {
            ServiceInstance instance = instances.get(i);
            boolean open = isOpen(instance);
            if (open && admitted == null) admitted = new ArrayList<>(instances.subList(0, i));
            else if (!open && admitted != null) admitted.add(instance);
        }
        return admitted == null || admitted.isEmpty() ? instances : admitted;
    }

    /**
     * Where calls go when no replica passed its latest health check: the configured ones whose breaker is not open
     * and that did not answer their probe with "not ready". A live replica whose probe was late on a starved machine
     * still serves; one that is down is ejected by its breaker, at its first refused connection or after a run of
     * timeouts, and then gets no more calls.
     */
    List<ServiceInstance> unchecked(List<ServiceInstance> configured, Predicate<URI> answeredNotReady) {
        List<ServiceInstance> candidates = new ArrayList<>(configured.size());
        for (ServiceInstance instance : configured) {
            if (!isOpen(instance) && !answeredNotReady.test(instance.getUri())) candidates.add(instance);
        }
        return candidates;
    }

    private boolean isOpen(ServiceInstance instance) {
        CircuitBreaker breaker = byAuthority.get(instance.getHost() + ":" + instance.getPort());
        return breaker != null && breaker.getState() == CircuitBreaker.State.OPEN;
    }

    /**
     * The load balancer's instance list with ejected replicas left out ({@link #admitted}), for a service whose calls
     * go through {@link LoadBalancedClients}; passed on unchanged for any other.
     */
    static final class Admitted extends DelegatingServiceInstanceListSupplier {

        private final ServiceInstanceListSupplier configured;
        private final Predicate<URI> answeredNotReady;
        private final LoadBalancedClients clients;

        Admitted(
                ServiceInstanceListSupplier healthChecked,
                ServiceInstanceListSupplier configured,
                Predicate<URI> answeredNotReady,
                LoadBalancedClients clients) {
            super(healthChecked);
            this.configured = configured;
            this.answeredNotReady = answeredNotReady;
            this.clients = clients;
        }

        private Flux<List<ServiceInstance>> admitted(Flux<List<ServiceInstance>> healthChecked) {
            ReplicaBreakers breakers = clients.replicaBreakers(getServiceId());
            if (breakers == null) return healthChecked;
            return healthChecked.flatMap(checked -> checked.isEmpty() && configured != null
                    ? configured.get().take(1).map(all -> breakers.unchecked(all, answeredNotReady))
                    : Flux.just(breakers.admitted(checked)));
        }

        @Override
        public Flux<List<ServiceInstance>> get() {
            return admitted(getDelegate().get());
        }

        @Override
        public Flux<List<ServiceInstance>> get(Request request) {
            return admitted(getDelegate().get(request));
        }
    }
}
