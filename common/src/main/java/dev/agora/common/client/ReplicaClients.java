package dev.agora.common.client;

import dev.agora.common.timing.ServerTiming;
import dev.agora.common.web.RequestIds;
import dev.agora.common.web.WritingFrontend;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.micrometer.tagged.TaggedBulkheadMetrics;
import io.github.resilience4j.micrometer.tagged.TaggedCircuitBreakerMetrics;
import io.github.resilience4j.micrometer.tagged.TaggedRetryMetrics;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.github.resilience4j.retry.RetryRegistry;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import org.springframework.cloud.loadbalancer.support.LoadBalancerClientFactory;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.RestClient;
import reactor.core.Disposable;

/**
 * The replica clients of this service, one {@link ReplicaClient} per service it calls ({@code agora.clients.*}),
 * with what they share: the Resilience4j registries (their metrics are Micrometer's {@code resilience4j.*}), the
 * {@link Hedging} threads, and one pooled HTTP client per called service. A Spring bean: created with the context,
 * every pool and thread closed with it.
 *
 * <p>Besides Resilience4j's metrics: {@code agora.client.instance.admitted{service,instance}} (1 while the replica
 * passes its health checks and its breaker is not open), {@code agora.client.instances.admitted{service}},
 * {@code agora.client.failovers}, {@code agora.client.hedges}, {@code agora.client.hedges.denied},
 * {@code agora.client.last.resorts} (attempts sent past the load balancer's choice, by the one fallback path of
 * {@link ReplicaClient.Fallback}),
 * {@code agora.client.calls.rejected} (the bulkhead was full) and {@code agora.client.pool.timeouts} (no pooled
 * connection within the timeout), each by {@code service}; the hedge threads' {@code executor_*} and
 * {@code agora_executor_rejected_total} ({@code name=agora.client.hedges}); and the connection pools'
 * {@code httpcomponents_httpclient_pool_*} ({@code httpclient=<service>}).
 */
public final class ReplicaClients implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReplicaClients.class);
    private static final Duration HALF_OPEN_SLACK = Duration.ofSeconds(1);

    private final AgoraClients settings;
    private final LoadBalancerClientFactory loadBalancers;
    private final DiscoveryClient discovery;
    private final RestClient.Builder restClients;
    private final MeterRegistry meters;
    private final Function<String, Duration> healthInterval;
    private final CircuitBreakerRegistry breakers = CircuitBreakerRegistry.ofDefaults();
    private final RetryRegistry retries = RetryRegistry.ofDefaults();
    private final BulkheadRegistry bulkheads = BulkheadRegistry.ofDefaults();
    private final Hedging hedging;
    private final Map<String, ReplicaClient> clients = new ConcurrentHashMap<>();
    private final Map<String, List<ServiceInstance>> healthy = new ConcurrentHashMap<>();
    private final List<CloseableHttpClient> pools = new ArrayList<>();
    private final List<Disposable> watches = new ArrayList<>();

    /**
     * @param restClients interceptors and observation of every call (request ids, {@code Server-Timing} and the
     *     writing frontend are added here)
     * @param healthInterval how often the load balancer health-checks every replica of a service
     *     ({@code spring.cloud.loadbalancer[.clients.<id>].health-check.interval}): an ejected replica is tried again
     *     after two
     */
    public ReplicaClients(
            AgoraClients settings,
            LoadBalancerClientFactory loadBalancers,
            DiscoveryClient discovery,
            RestClient.Builder restClients,
            MeterRegistry meters,
            Function<String, Duration> healthInterval) {
        this.settings = settings;
        this.loadBalancers = loadBalancers;
        this.discovery = discovery;
        this.restClients = passingOn(restClients.clone());
        this.meters = meters;
        this.healthInterval = healthInterval;
        int hedgeThreads = settings.clients().values().stream()
                .mapToInt(ClientSettings::maxConcurrentHedges)
                .sum();
        this.hedging = new Hedging(Math.max(4, hedgeThreads), meters);
        TaggedCircuitBreakerMetrics.ofCircuitBreakerRegistry(breakers).bindTo(meters);
        TaggedRetryMetrics.ofRetryRegistry(retries).bindTo(meters);
        TaggedBulkheadMetrics.ofBulkheadRegistry(bulkheads).bindTo(meters);
        // Every configured service is health-checked from the start, before its first call.
        for (String serviceId : settings.clients().keySet()) of(serviceId);
    }

    /** Calls {@code serviceId}; see {@link ReplicaClient#call}. */
    public <T> T call(String serviceId, CallSafety safety, Replica.Attempt<T> attempt) {
        return of(serviceId).call(safety, attempt);
    }

    /**
     * Whether {@code answered} is a refusal that applied nothing (503 problem+json of type {@code not-applied}),
     * which calls repeat on another replica whatever their {@link CallSafety}. An attempt that reads the answer
     * itself (a passthrough) throws such an answer to have it repeated.
     */
    public static boolean refusedBeforeApplying(HttpServerErrorException answered) {
        return Failure.notApplied(answered);
    }

    public ReplicaClient of(String serviceId) {
        ReplicaClient client = clients.get(serviceId);
        return client != null ? client : clients.computeIfAbsent(serviceId, this::create);
    }

    /** The replicas that calls may go to now: passing their health checks, breaker not open. */
    public List<URI> admitted(String serviceId) {
        ReplicaClient client = of(serviceId);
        return healthy.getOrDefault(serviceId, List.of()).stream()
                .map(ServiceInstance::getUri)
                .filter(uri -> client.breaker(uri).getState() != CircuitBreaker.State.OPEN)
                .toList();
    }

    private synchronized ReplicaClient create(String serviceId) {
        ClientSettings own = settings.of(serviceId);
        breakers.addConfiguration(serviceId, breakerConfig(own, healthInterval.apply(serviceId)));
        CloseableHttpClient http = PooledHttpClients.build(
                serviceId, own.connectTimeout(), own.timeout(), own.maxConcurrentCalls(), meters);
        pools.add(http);
        AttemptScope.Requests requests = new AttemptScope.Requests(http);
        Retry retry = retries.retry(
                serviceId,
                RetryConfig.custom()
                        .maxAttempts(own.attempts())
                        .waitDuration(own.retryInterval())
                        .retryOnException(e -> e instanceof ReplicaClient.Retryable)
                        .build());
        Bulkhead bulkhead = bulkheads.bulkhead(serviceId, bulkheadConfig(own));
        Bulkhead hedges = bulkheads.bulkhead(
                serviceId + "-hedges",
                BulkheadConfig.custom()
                        .maxConcurrentCalls(own.maxConcurrentHedges())
                        .maxWaitDuration(Duration.ZERO)
                        .build());
        ReplicaClient client = new ReplicaClient(
                serviceId,
                own,
                loadBalancers.getInstance(serviceId),
                uri -> restClients
                        .clone()
                        .requestFactory(requests)
                        .baseUrl(uri.toString())
                        .build(),
                breakers,
                retry,
                bulkhead,
                hedges,
                hedging,
                meters,
                () -> fallback(serviceId, own.waitsForReplicas()));
        watch(serviceId, client);
        return client;
    }

    /**
     * Where an attempt goes when no replica the load balancer offers passes its breaker ({@link ReplicaClient.Fallback}):
     * for a service that waits for replicas, every replica discovery knows; otherwise the health-checked replicas, or
     * when there are none, every configured replica except those that answered their readiness probe with "not ready"
     * (one whose probe timed out on a starved machine may well serve).
     */
    private ReplicaClient.Fallback fallback(String serviceId, boolean waitsForReplicas) {
        List<ServiceInstance> listed = healthy.getOrDefault(serviceId, List.of());
        Set<URI> healthChecked = listed.stream().map(ServiceInstance::getUri).collect(Collectors.toUnmodifiableSet());
        if (waitsForReplicas) {
            return new ReplicaClient.Fallback(discovery.getInstances(serviceId), healthChecked, true);
        }
        ReadinessProbes probes = loadBalancers.getInstance(serviceId, ReadinessProbes.class);
        List<ServiceInstance> configured = discovery.getInstances(serviceId).stream()
                .filter(instance -> probes == null || !probes.answeredNotReady(instance.getUri()))
                .toList();
        if (!listed.isEmpty()) return new ReplicaClient.Fallback(listed, healthChecked, false, configured);
        return new ReplicaClient.Fallback(configured, Set.of(), false);
    }

    /**
     * The replicas a call may go to when none is {@link #admitted}: the health-checked ones, whatever their breakers
     * say; when none passed its health check, those whose breaker is closed and that did not answer "not ready"; for
     * a service that waits for replicas, every known one (its breaker decides at the call). Empty when calls end in
     * 503 without an attempt.
     */
    public List<URI> lastResorts(String serviceId) {
        ReplicaClient client = of(serviceId);
        ReplicaClient.Fallback fallback = fallback(serviceId, client.settings().waitsForReplicas());
        return fallback.candidates().stream()
                .filter(instance -> fallback.admits(instance, client.breaker(instance.getUri())))
                .map(ServiceInstance::getUri)
                .toList();
    }

    /**
     * What every call to another service passes on: the request id, the writing frontend, and the callee's
     * {@code Server-Timing} relayed into this service's.
     */
    static RestClient.Builder passingOn(RestClient.Builder builder) {
        return builder.requestInterceptor(RequestIds.propagatingInterceptor())
                .requestInterceptor(WritingFrontend.propagatingInterceptor())
                .requestInterceptor(ServerTiming.relayingInterceptor());
    }

    /** A service's bulkhead: at most its {@code max-concurrent-calls} in flight; the next is refused at once. */
    static BulkheadConfig bulkheadConfig(ClientSettings own) {
        return BulkheadConfig.custom()
                .maxConcurrentCalls(own.maxConcurrentCalls())
                .maxWaitDuration(Duration.ZERO)
                .build();
    }

    /**
     * A replica that fails half of its last ten calls (at least five) or refuses a connection is ejected; after two
     * health-check intervals two trial calls may go to it, and it is back when they succeed. A breaker whose trial
     * calls have not all ended within {@link #maxHalfOpen} opens again (Resilience4j's default is to wait for
     * them forever).
     */
    static CircuitBreakerConfig breakerConfig(ClientSettings own, Duration healthInterval) {
        return CircuitBreakerConfig.custom()
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .slidingWindowSize(10)
                .minimumNumberOfCalls(5)
                .failureRateThreshold(50)
                .waitDurationInOpenState(healthInterval.multipliedBy(2))
                .permittedNumberOfCallsInHalfOpenState(2)
                .maxWaitDurationInHalfOpenState(maxHalfOpen(own))
                // A 4xx is the replica doing its job (a call through Spring Cloud CircuitBreaker throws it).
                .ignoreExceptions(HttpClientErrorException.class)
                .build();
    }

    /**
     * The longest a trial call can take (waiting for a pooled connection, bounded by {@code timeout}, and for the
     * answer, bounded by {@code timeout} or, for a call that is not idempotent, {@code notIdempotentTimeout}), and a
     * second more: a breaker still half-open after that has lost a trial call's outcome, and must not refuse calls
     * for good.
     */
    static Duration maxHalfOpen(ClientSettings own) {
        Duration longest =
                own.timeout().compareTo(own.notIdempotentTimeout()) >= 0 ? own.timeout() : own.notIdempotentTimeout();
        return own.timeout().plus(longest).plus(HALF_OPEN_SLACK);
    }

    /** Follows the load balancer's health-checked list of the service, for the admission gauges. */
    private void watch(String serviceId, ReplicaClient client) {
        ServiceInstanceListSupplier supplier = loadBalancers.getInstance(serviceId, ServiceInstanceListSupplier.class);
        if (supplier != null) {
            watches.add(supplier.get()
                    .subscribe(
                            list -> {
                                List<ServiceInstance> previous = healthy.put(serviceId, List.copyOf(list));
                                if (log.isDebugEnabled() && !list.equals(previous)) {
                                    log.debug(
                                            "{} health-checked: {}",
                                            serviceId,
                                            list.stream()
                                                    .map(ServiceInstance::getUri)
                                                    .toList());
                                }
                            },
                            error -> log.warn("Instance list of {} failed: {}", serviceId, error.toString())));
        }
        Gauge.builder("agora.client.instances.admitted", () -> admitted(serviceId)
                        .size())
                .tag("service", serviceId)
                .register(meters);
        for (ServiceInstance instance : discovery.getInstances(serviceId)) {
            URI uri = instance.getUri();
            Gauge.builder(
                            "agora.client.instance.admitted",
                            () -> admitted(serviceId).contains(uri) ? 1 : 0)
                    .tags("service", serviceId, "instance", uri.toString())
                    .register(meters);
        }
    }

    @Override
    public synchronized void close() {
        watches.forEach(Disposable::dispose);
        hedging.close();
        for (CloseableHttpClient pool : pools) {
            try {
                pool.close();
            } catch (IOException e) {
                log.debug("Closing a connection pool failed", e);
            }
        }
    }
}
